"""Correct variant: fills preallocated (L+1, D) arrays row by row and scales by a square root taken in the input dtype."""
import numpy as np


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    n_old, width = cached_K.shape[0], new_k.shape[1]
    keys = np.empty((n_old + 1, width), dtype=new_k.dtype)
    values = np.empty((n_old + 1, width), dtype=new_v.dtype)
    keys[:n_old] = cached_K
    keys[n_old] = new_k[0]
    values[:n_old] = cached_V
    values[n_old] = new_v[0]

    root = np.sqrt(new_q.dtype.type(width))  # a scalar of the input dtype
    s = (keys @ new_q[0]) / root              # (L+1,)
    e = np.exp(s - s.max())
    p = e / e.sum()
    out = (p @ values).reshape(1, width)
    return {"output": out, "updated_K": keys, "updated_V": values}
