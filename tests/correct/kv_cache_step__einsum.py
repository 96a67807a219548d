"""Correct variant: np.einsum for the score row and the weighted sum, softmax in a max-shifting helper."""
import math

import numpy as np


def _shifted_softmax(row):
    # shift by the largest entry so the biggest exponent is exp(0)
    expo = np.exp(row - np.max(row, axis=-1, keepdims=True))
    return expo / np.sum(expo, axis=-1, keepdims=True)


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    keys = np.vstack((cached_K, new_k))      # (L+1, D)
    values = np.vstack((cached_V, new_v))    # (L+1, D)
    width = keys.shape[1]
    logits = np.einsum("qd,kd->qk", new_q, keys) / math.sqrt(width)  # (1, L+1)
    probs = _shifted_softmax(logits)
    attended = np.einsum("qk,kd->qd", probs, values)  # (1, D)
    return {"output": attended, "updated_K": keys, "updated_V": values}
