"""Returns the token ids as a float array (the prompt's dtype) instead of integers."""
from causal_lm_generate_no_cache__float_output import FloatOutput

causal_lm_generate_with_kv_cache = FloatOutput().generate_cached
