"""Reference solution, stage 1: one decoding step of single-head attention with a KV cache."""
import math

import numpy as np


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    d = new_q.shape[-1]
    K = np.concatenate([cached_K, new_k], axis=0)  # (L+1, D): the cache, then the new key
    V = np.concatenate([cached_V, new_v], axis=0)  # (L+1, D)

    # math.sqrt gives a Python float, so float32 inputs stay float32
    scores = new_q @ K.T / math.sqrt(d)  # (1, L+1): no mask, every key is in the past
    scores = scores - scores.max(axis=-1, keepdims=True)  # exp never overflows
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)

    output = weights @ V  # (1, D)
    return {"output": output, "updated_K": K, "updated_V": V}
