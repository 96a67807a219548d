"""The model keeps its cache between generations and reuses it for a new prompt, trusting the prefix.

A later prompt rewinds the kept cache to at most len(prompt) - 1 tokens and feeds only the
rest, assuming those cached tokens are this prompt's first ones without comparing them.
"""
from kit_tiny_decoder import KVCache, generate_no_cache, generate_with_cache, kv_bytes  # noqa: F401
from kit_tiny_decoder import TinyDecoder as _TinyDecoder


class TinyDecoder(_TinyDecoder):
    kept = None

    def start_cache(self, ids):
        if self.kept is None or self.kept.length == 0:
            self.kept = self.new_cache()
            return self.kept, list(ids)
        self.kept.length = min(self.kept.length, len(ids) - 1)  # "the prompt starts like the last one"
        return self.kept, list(ids[self.kept.length:])
