"""model.scores counts one score matrix per layer, not one per layer and head."""
from kit_tiny_decoder import KVCache, generate_no_cache, generate_with_cache, kv_bytes  # noqa: F401
from kit_tiny_decoder import TinyDecoder as _TinyDecoder


class TinyDecoder(_TinyDecoder):
    def count(self, t, m):
        self.positions += m
        self.scores += self.n_layers * m * (t + m)
