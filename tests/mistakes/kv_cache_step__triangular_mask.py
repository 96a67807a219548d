"""A triangular mask on the single query row: row 0 may only see key 0, so the rest of the prefix is hidden."""
import numpy as np

from kit_attention_step import AttentionStep


class TriangularMask(AttentionStep):
    def mask(self, scores):
        rows, cols = scores.shape
        future = np.triu(np.ones((rows, cols), dtype=bool), k=1)  # causal, like in a prompt pass
        return np.where(future, -np.inf, scores)


kv_cache_step = TriangularMask().step
