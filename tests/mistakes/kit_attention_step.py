"""A correct kv_cache_step cut into small methods, so that each mistake file overrides one.

Not a reference solution: the mistake files in this folder subclass AttentionStep,
rewrite one method the way a learner might get it wrong, and expose
`kv_cache_step = TheirSubclass().step` for the grader to call.
"""
import math

import numpy as np


class AttentionStep:
    def step(self, cached_K, cached_V, new_q, new_k, new_v):
        full_K = self.concat_keys(cached_K, new_k, new_q)  # (L+1, D)
        full_V = self.concat_values(cached_V, new_v)  # (L+1, D)
        output = self.attend(new_q, cached_K, cached_V, full_K, full_V)  # (1, D)
        return {"output": output, "updated_K": full_K, "updated_V": full_V}

    # -- growing the caches
    def append(self, cache, row):
        return np.concatenate([cache, row], axis=0)  # old rows first, the new one last

    def concat_keys(self, cached_K, new_k, new_q):
        return self.append(cached_K, new_k)

    def concat_values(self, cached_V, new_v):
        return self.append(cached_V, new_v)

    # -- one query row against every key
    def attend(self, new_q, cached_K, cached_V, full_K, full_V):
        scores = self.scale(self.scores(new_q, full_K), new_q.shape[-1])  # (1, L+1)
        return self.finish(self.softmax(self.mask(scores)), full_V)

    def scores(self, new_q, keys):
        return new_q @ keys.T

    def scale(self, scores, d):
        return scores / math.sqrt(d)  # a Python float keeps float32 as float32

    def mask(self, scores):
        return scores  # every key is in the query's past: nothing to hide

    def softmax(self, scores):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def finish(self, weights, values):
        return weights @ values  # (1, D)
