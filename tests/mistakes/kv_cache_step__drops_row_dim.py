"""Returns the output as a flat (D,) vector instead of a (1, D) row."""
from kit_attention_step import AttentionStep


class DropsRowDim(AttentionStep):
    def finish(self, weights, values):
        return weights[0] @ values  # there is only one row of weights anyway


kv_cache_step = DropsRowDim().step
