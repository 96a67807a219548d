"""Pre-LN blocks (normalise before each branch, add the branch to x) instead of the required post-LN blocks."""
from causal_lm_generate_no_cache__pre_ln import PreLN

causal_lm_generate_with_kv_cache = PreLN().generate_cached
