"""A correct stage-4 tiny decoder cut into small methods, so that each mistake file overrides one.

Not a reference solution (it imports nothing from solutions/): the stage-4 mistake files
subclass KVCache or TinyDecoder, rewrite one hook the way a learner might get it wrong,
and re-bind the module-level names the grader reads (kv_bytes, KVCache, TinyDecoder,
generate_no_cache, generate_with_cache). The generators are thin functions that call
methods of the model they are given, so a TinyDecoder subclass changes them too.

Notation: t tokens already cached (0 without a cache), m new tokens in this call.
"""
import math

import numpy as np


def layer_norm(x, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)


def gelu(u):
    return 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u * u * u)))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def kv_bytes(layers, heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    per_value = layers * heads * head_dim * seq_len * batch * bytes_per_value
    return 2 * per_value  # a key AND a value for each of them


class KVCache:
    def __init__(self, n_layers, n_heads, max_len, d_head):
        self.max_len = max_len
        self.k = self.reserve(n_layers, n_heads, max_len, d_head)  # (L, h, max_len, hd)
        self.v = self.reserve(n_layers, n_heads, max_len, d_head)
        self.length = 0

    # -- memory ---------------------------------------------------------------------
    def reserve(self, n_layers, n_heads, max_len, d_head):
        return np.zeros((n_layers, n_heads, max_len, d_head))  # every slot, once

    def store(self, layer, t, k_new, v_new):
        m = k_new.shape[1]
        self.k[layer, :, t : t + m] = k_new  # into the reserved arrays, in place
        self.v[layer, :, t : t + m] = v_new

    # -- the public method ------------------------------------------------------------
    def append(self, layer, k_new, v_new):
        t, m = self.length, k_new.shape[1]
        self.check_room(t, m)
        self.store(layer, t, k_new, v_new)
        return self.k[layer, :, : t + m], self.v[layer, :, : t + m]  # views; length is left alone

    def check_room(self, t, m):
        if t + m > self.max_len:
            raise ValueError(f"KVCache is full: {t} + {m} tokens > max_len={self.max_len}")


class TinyDecoder:
    cache_class = KVCache

    def __init__(self, vocab=96, d_model=128, n_heads=4, n_layers=4, max_len=256, seed=0):
        # Given to learners in exercises/tiny_decoder.py: the weights must be these exactly.
        if d_model % n_heads:
            raise ValueError(f"d_model={d_model} is not a multiple of n_heads={n_heads}")
        self.vocab, self.d_model, self.n_heads, self.n_layers = vocab, d_model, n_heads, n_layers
        self.d_head, self.max_len = d_model // n_heads, max_len
        self.positions = 0
        self.scores = 0

        rng = np.random.default_rng(seed)
        d, L = d_model, n_layers
        self.tok_emb = rng.normal(0, 1, (vocab, d))  # (vocab, d)
        self.pos_emb = rng.normal(0, 1, (max_len, d))  # (max_len, d): row p is position p
        self.w_q = rng.normal(0, d**-0.5, (L, d, d))  # w_q[layer]: (d, d)
        self.w_k = rng.normal(0, d**-0.5, (L, d, d))
        self.w_v = rng.normal(0, d**-0.5, (L, d, d))
        self.w_o = rng.normal(0, d**-0.5, (L, d, d))
        self.w_up = rng.normal(0, d**-0.5, (L, d, 4 * d))  # MLP in: (d, 4d)
        self.w_down = rng.normal(0, (4 * d) ** -0.5, (L, 4 * d, d))  # MLP out: (4d, d)
        self.w_out = rng.normal(0, 2 * d**-0.5, (d, vocab))  # unembedding

    def new_cache(self):
        return self.cache_class(self.n_layers, self.n_heads, self.max_len, self.d_head)

    # -- one forward for every mode -------------------------------------------------------
    def forward(self, ids, cache=None):
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        t = self.cached(cache)
        ids = self.admit(ids, t)  # refuses a call past max_len before anything changes
        m = len(ids)
        x = self.embed(ids, t, m)  # (m, d)
        x = self.run_layers(x, cache, m)
        self.commit(cache, t, m)
        self.count(t, m)
        return self.logits(x)  # (m, vocab)

    def cached(self, cache):
        return 0 if cache is None else int(cache.length)

    def admit(self, ids, t):
        if t + len(ids) > self.max_len:
            raise ValueError(f"{t} cached + {len(ids)} new tokens would pass max_len={self.max_len}")
        return ids

    def position_ids(self, t, m):
        return np.arange(t, t + m)  # the new tokens come after the t cached ones

    def embed(self, ids, t, m):
        return self.tok_emb[ids] + self.pos_emb[self.position_ids(t, m)]

    def mask(self, t, m):
        """(m, t + m) bool, True where a score is hidden: row i is position t + i."""
        return np.arange(t + m)[None, :] > (t + np.arange(m))[:, None]

    def run_layers(self, x, cache, m):
        for layer in range(self.n_layers):
            x = self.block(layer, x, cache, m)
        return x

    def split_heads(self, x):
        return x.reshape(x.shape[0], self.n_heads, self.d_head).transpose(1, 0, 2)  # (h, m, hd)

    def merge_heads(self, x):
        return x.transpose(1, 0, 2).reshape(x.shape[1], self.d_model)  # (m, d)

    def block(self, layer, x, cache, m):
        a = layer_norm(x)
        q = self.split_heads(a @ self.w_q[layer])
        k = self.split_heads(a @ self.w_k[layer])
        v = self.split_heads(a @ self.w_v[layer])
        if cache is not None:
            k, v = cache.append(layer, k, v)  # (h, t + m, hd)
        x = x + self.merge_heads(self.attend(q, k, v, m)) @ self.w_o[layer]
        return x + gelu(layer_norm(x) @ self.w_up[layer]) @ self.w_down[layer]

    def attend(self, q, k, v, m):
        s = q @ k.transpose(0, 2, 1) / math.sqrt(self.d_head)  # (h, m, t + m)
        s = np.where(self.mask(k.shape[1] - m, m), -np.inf, s)  # the mask fits the keys append returned
        return softmax(s) @ v  # (h, m, hd)

    def commit(self, cache, t, m):
        if cache is not None:
            cache.length = t + m  # once, after every layer wrote slots t .. t + m - 1

    def count(self, t, m):
        self.positions += m
        self.scores += self.n_layers * self.n_heads * m * (t + m)

    def logits(self, x):
        return layer_norm(x) @ self.w_out

    # -- greedy generation (the module-level functions call these) ---------------------------
    def pick(self, row):
        return int(np.argmax(row))  # ties go to the smallest id

    def stack(self, rows):
        return np.array(rows, dtype=np.float64).reshape(len(rows), self.vocab)  # (n_new, vocab)

    def generate_plain(self, prompt, n_new):
        ids, rows = [int(i) for i in prompt], []
        for _ in range(n_new):
            rows.append(self.forward(ids)[-1])  # the whole sequence, every step
            ids.append(self.pick(rows[-1]))
        return ids, self.stack(rows)

    def start_cache(self, ids):
        """The cache a generation starts from, and the tokens it still has to feed."""
        return self.new_cache(), list(ids)

    def generate_cached(self, prompt, n_new):
        ids, rows = [int(i) for i in prompt], []
        cache, pending = self.start_cache(ids)
        for _ in range(n_new):
            rows.append(self.forward(pending, cache)[-1])  # prefill, then one token per step
            ids.append(self.pick(rows[-1]))
            pending = ids[-1:]
        return ids, self.stack(rows), cache  # the last token is never fed: length P + n_new - 1


def generate_no_cache(model, prompt, n_new):
    return model.generate_plain(prompt, n_new)


def generate_with_cache(model, prompt, n_new):
    return model.generate_cached(prompt, n_new)
