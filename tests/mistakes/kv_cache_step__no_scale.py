"""Scores used as raw dot products, never divided by sqrt(D)."""
from kit_attention_step import AttentionStep


class NoScale(AttentionStep):
    def scale(self, scores, d):
        return scores


kv_cache_step = NoScale().step
