"""Returns only the generated tokens, without the prompt in front."""
from causal_lm_generate_no_cache__generated_only import GeneratedOnly

causal_lm_generate_with_kv_cache = GeneratedOnly().generate_cached
