"""No max_len check: tokens that do not fit are silently dropped, and the call returns fewer rows."""
from kit_tiny_decoder import KVCache, generate_no_cache, generate_with_cache, kv_bytes  # noqa: F401
from kit_tiny_decoder import TinyDecoder as _TinyDecoder


class TinyDecoder(_TinyDecoder):
    def admit(self, ids, t):
        return ids[: max(self.max_len - t, 0)]  # keep what fits, say nothing
