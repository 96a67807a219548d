"""Scales the attention scores by sqrt(D) instead of sqrt(D / num_heads)."""
import math

from kit_lm import CausalLM


class ScaleBySqrtD(CausalLM):
    def score_scale(self, m):
        return math.sqrt(m.D)


causal_lm_generate_no_cache = ScaleBySqrtD().generate
