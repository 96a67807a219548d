"""Positions count from 0 in every call, so a decode step adds pos_emb[0] to the new token."""
import numpy as np

from kit_tiny_decoder import KVCache, generate_no_cache, generate_with_cache, kv_bytes  # noqa: F401
from kit_tiny_decoder import TinyDecoder as _TinyDecoder


class TinyDecoder(_TinyDecoder):
    def position_ids(self, t, m):
        return np.arange(m)  # pos_emb[0 : m], whatever the cache already holds
