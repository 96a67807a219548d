"""Uses the exact erf GELU instead of the required tanh approximation."""
from causal_lm_generate_no_cache__erf_gelu import ErfGelu

causal_lm_generate_with_kv_cache = ErfGelu().generate_cached
