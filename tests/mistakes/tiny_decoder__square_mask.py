"""The causal mask is the (m, m) triangle of the new tokens, padded with visible columns to (m, t + m).

The padding goes after the triangle, as if the new tokens came first: right for a prefill
(t = 0) and for a decode step (m = 1, nothing to hide), wrong for a chunk on a non-empty cache.
"""
import numpy as np

from kit_tiny_decoder import KVCache, generate_no_cache, generate_with_cache, kv_bytes  # noqa: F401
from kit_tiny_decoder import TinyDecoder as _TinyDecoder


class TinyDecoder(_TinyDecoder):
    def mask(self, t, m):
        future = np.triu(np.ones((m, m), dtype=bool), k=1)  # (m, m): new token i may not see new token j > i
        return np.hstack([future, np.zeros((m, t), dtype=bool)])  # widened to (m, t + m) so it broadcasts
