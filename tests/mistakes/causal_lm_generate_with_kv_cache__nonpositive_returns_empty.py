"""With max_new_tokens <= 0 it returns an empty array instead of the prompt."""
from causal_lm_generate_no_cache__nonpositive_returns_empty import NonpositiveReturnsEmpty

causal_lm_generate_with_kv_cache = NonpositiveReturnsEmpty().generate_cached
