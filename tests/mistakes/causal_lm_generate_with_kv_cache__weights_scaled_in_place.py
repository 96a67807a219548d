"""Folds 1/sqrt(hd) into w_q in place, which changes the caller's weights and scales them again on every pass."""
import math

from kit_lm import CausalLM


class WeightsScaledInPlace(CausalLM):
    def queries(self, m, x, w_q):
        w_q *= 1 / math.sqrt(m.hd)  # fold the score scale into the weights once
        return self.split_heads(x @ w_q, m.H)


causal_lm_generate_with_kv_cache = WeightsScaledInPlace().generate_cached
