"""Correct variant: plain Python loops over keys and features with math.exp; arrays of the input dtype are built at the end."""
import math

import numpy as np


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    dtype = new_q.dtype
    width = new_q.shape[1]
    n_old = cached_K.shape[0]

    key_rows = [[float(cached_K[r, c]) for c in range(width)] for r in range(n_old)]
    key_rows.append([float(new_k[0, c]) for c in range(width)])
    value_rows = [[float(cached_V[r, c]) for c in range(width)] for r in range(n_old)]
    value_rows.append([float(new_v[0, c]) for c in range(width)])
    query = [float(new_q[0, c]) for c in range(width)]

    inv_root = 1.0 / math.sqrt(width)
    raw = []
    for key in key_rows:
        dot = 0.0
        for c in range(width):
            dot += query[c] * key[c]
        raw.append(dot * inv_root)

    top = max(raw)
    unnorm = [math.exp(s - top) for s in raw]
    total = sum(unnorm)
    probs = [u / total for u in unnorm]

    mixed = [0.0] * width
    for p, value in zip(probs, value_rows):
        for c in range(width):
            mixed[c] += p * value[c]

    n_all = n_old + 1
    return {
        "output": np.array(mixed, dtype=dtype).reshape(1, width),
        "updated_K": np.array(key_rows, dtype=dtype).reshape(n_all, width),
        "updated_V": np.array(value_rows, dtype=dtype).reshape(n_all, width),
    }
