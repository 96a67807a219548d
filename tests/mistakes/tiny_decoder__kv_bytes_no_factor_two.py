"""kv_bytes counts one vector per layer, head and token: it forgets that the cache holds keys and values."""
from kit_tiny_decoder import KVCache, TinyDecoder, generate_no_cache, generate_with_cache  # noqa: F401


def kv_bytes(layers, heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    return layers * heads * head_dim * seq_len * batch * bytes_per_value
