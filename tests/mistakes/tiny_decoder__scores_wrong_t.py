"""model.scores counts the new tokens against the new tokens only (m * m), forgetting the t cached keys."""
from kit_tiny_decoder import KVCache, generate_no_cache, generate_with_cache, kv_bytes  # noqa: F401
from kit_tiny_decoder import TinyDecoder as _TinyDecoder


class TinyDecoder(_TinyDecoder):
    def count(self, t, m):
        self.positions += m
        self.scores += self.n_layers * self.n_heads * m * m
