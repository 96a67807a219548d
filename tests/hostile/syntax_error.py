"""Does not parse."""


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v)
    return None
