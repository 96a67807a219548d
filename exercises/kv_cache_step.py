"""Stage 1: one decoding step of single-head attention that reuses a KV cache.

Read kv_cache_step.md first. Check your work with `kata check kv_cache_step`.
"""
import math

import numpy as np


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    """Add one token to a key/value cache and compute that token's attention output.

    Inputs (all NumPy floating-point arrays of one shared dtype, all finite):
        cached_K: shape (L, D), keys of the L tokens seen so far, oldest first.
        cached_V: shape (L, D), their values, in the same order as cached_K.
        new_q:    shape (1, D), query of the token being decoded now.
        new_k:    shape (1, D), key of that token.
        new_v:    shape (1, D), value of that token.
    L may be 0 (an empty cache of shape (0, D)); D is at least 1.

    Returns a dict with exactly three entries, each with the inputs' dtype:
        "output":    shape (1, D), what the new query reads from the values.
        "updated_K": shape (L+1, D), cached_K with new_k added as the last row.
        "updated_V": shape (L+1, D), cached_V with new_v added as the last row.

    Rules:
        * The new query looks at all L+1 keys, its own included. Apply no
          causal mask: every key in the cache is already in its past.
        * Scale the dot products by sqrt(D) and normalise them with a
          numerically stable softmax (take away the largest score first).
        * Keep the leading dimension of size 1 on "output": (1, D), not (D,).
        * Do not write into any input array; build and return new ones.
        * Keep the dtype: float32 in means float32 out.
    """
    # TODO: append the new key and value below the cached ones.
    # TODO: score the new query against every key, softmax, weight the values.
    raise NotImplementedError("kv_cache_step: not implemented yet")
