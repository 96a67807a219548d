"""Defines the wrong name."""


def kv_cache(cached_K, cached_V, new_q, new_k, new_v):
    return None
