"""Prints megabytes of text before answering wrongly."""

def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    print("x" * 5_000_000)
    return {"output": new_v * 2, "updated_K": cached_K, "updated_V": cached_V}
