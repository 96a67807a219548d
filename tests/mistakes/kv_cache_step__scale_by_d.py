"""Scores divided by D instead of by sqrt(D)."""
from kit_attention_step import AttentionStep


class ScaleByD(AttentionStep):
    def scale(self, scores, d):
        return scores / d


kv_cache_step = ScaleByD().step
