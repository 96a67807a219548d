"""Scales the attention scores by sqrt(D) instead of sqrt(D / num_heads)."""
from causal_lm_generate_no_cache__scale_by_sqrt_d import ScaleBySqrtD

causal_lm_generate_with_kv_cache = ScaleBySqrtD().generate_cached
