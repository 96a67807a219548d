"""KVCache.append advances cache.length itself, so it moves once per layer: layer 2 writes the next slots."""
from kit_tiny_decoder import KVCache as _KVCache
from kit_tiny_decoder import TinyDecoder as _TinyDecoder
from kit_tiny_decoder import generate_no_cache, generate_with_cache, kv_bytes  # noqa: F401


class KVCache(_KVCache):
    def append(self, layer, k_new, v_new):
        k, v = super().append(layer, k_new, v_new)
        self.length += k_new.shape[1]  # called by every layer of the same forward
        return k, v


class TinyDecoder(_TinyDecoder):
    cache_class = KVCache
