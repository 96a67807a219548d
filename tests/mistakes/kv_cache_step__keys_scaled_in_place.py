"""Scales the caller's cached_K in place, changing the caller's cache (and failing on read-only input)."""
import math

import numpy as np

from kit_attention_step import AttentionStep


class KeysScaledInPlace(AttentionStep):
    def attend(self, new_q, cached_K, cached_V, full_K, full_V):
        d = new_q.shape[-1]
        cached_K /= math.sqrt(d)  # scale the old keys where they are, no extra array
        keys = np.concatenate([cached_K, full_K[-1:] / math.sqrt(d)], axis=0)
        return self.finish(self.softmax(self.mask(new_q @ keys.T)), full_V)


kv_cache_step = KeysScaledInPlace().step
