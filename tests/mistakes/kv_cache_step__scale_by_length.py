"""Scores divided by the square root of the number of keys (L+1) instead of the feature width D."""
import math

from kit_attention_step import AttentionStep


class ScaleByLength(AttentionStep):
    def scale(self, scores, d):
        return scores / math.sqrt(scores.shape[-1])  # one score per key


kv_cache_step = ScaleByLength().step
