"""Folds 1/sqrt(hd) into w_q in place, which changes the caller's weights and scales them again on every pass."""
from causal_lm_generate_no_cache__weights_scaled_in_place import WeightsScaledInPlace

causal_lm_generate_with_kv_cache = WeightsScaledInPlace().generate_cached
