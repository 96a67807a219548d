"""Asks for far more memory than a grading child may have."""
import numpy as np


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    hoard = np.ones((1 << 40,), dtype=np.uint8)  # a terabyte
    return {"output": hoard[:1], "updated_K": cached_K, "updated_V": cached_V}
