"""Reference solution, stage 4: a tiny pre-LN decoder with a preallocated KV cache.

One forward(ids, cache) serves every mode. t is the number of tokens already in
the cache (0 without one), m the number of new tokens in this call:

    full pass        no cache      t = 0        m = whole sequence
    prefill          empty cache   t = 0        m = P
    chunked prefill  cache         t > 0        m > 1
    decode           cache         t grows      m = 1
"""
import math

import numpy as np


def layer_norm(x, eps=1e-5):
    # sums divided by n: the arithmetic of x.mean() and x.var(), without their Python bookkeeping,
    # which costs more than the sums on a single row (a decode step); and the mean is computed once
    n = x.shape[-1]
    centred = x - x.sum(axis=-1, keepdims=True) / n
    var = (centred * centred).sum(axis=-1, keepdims=True) / n  # population variance, no scale or bias
    return centred / np.sqrt(var + eps)


def gelu(u):
    # u * u * u, not u**3: numpy's general power is about 50x slower here
    return 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u * u * u)))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def kv_bytes(layers, heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    # one key and one value vector per layer, head, token and request
    return 2 * layers * heads * head_dim * seq_len * batch * bytes_per_value


class KVCache:
    def __init__(self, n_layers, n_heads, max_len, d_head):
        # reserved once: decoding writes into slices, it never grows or copies the arrays
        self.k = np.zeros((n_layers, n_heads, max_len, d_head))  # (L, h, max_len, hd)
        self.v = np.zeros((n_layers, n_heads, max_len, d_head))
        self.length = 0

    def append(self, layer, k_new, v_new):
        t, m = self.length, k_new.shape[1]
        if t + m > self.k.shape[2]:
            raise ValueError(f"cache full: {t} cached + {m} new tokens > max_len={self.k.shape[2]}")
        self.k[layer, :, t : t + m] = k_new
        self.v[layer, :, t : t + m] = v_new
        # length is not advanced here: every layer of this call writes the same slots,
        # and the model commits the new length once, after the last layer
        return self.k[layer, :, : t + m], self.v[layer, :, : t + m]  # (h, t+m, hd): views


class TinyDecoder:
    def __init__(self, vocab=96, d_model=128, n_heads=4, n_layers=4, max_len=256, seed=0):
        if d_model % n_heads:
            raise ValueError(f"d_model={d_model} is not a multiple of n_heads={n_heads}")
        self.vocab, self.d_model, self.n_heads, self.n_layers = vocab, d_model, n_heads, n_layers
        self.d_head, self.max_len = d_model // n_heads, max_len
        self.positions = 0  # tokens pushed through the stack
        self.scores = 0  # attention scores computed, masked ones included

        rng = np.random.default_rng(seed)
        d, L = d_model, n_layers
        # std 1/sqrt(fan_in) keeps every projection near unit scale
        self.tok_emb = rng.normal(0, 1, (vocab, d))
        self.pos_emb = rng.normal(0, 1, (max_len, d))
        self.w_q = rng.normal(0, d**-0.5, (L, d, d))
        self.w_k = rng.normal(0, d**-0.5, (L, d, d))
        self.w_v = rng.normal(0, d**-0.5, (L, d, d))
        self.w_o = rng.normal(0, d**-0.5, (L, d, d))
        self.w_up = rng.normal(0, d**-0.5, (L, d, 4 * d))
        self.w_down = rng.normal(0, (4 * d) ** -0.5, (L, 4 * d, d))
        # the final layer norm gives unit-scale features, so the logits' std is about 2
        self.w_out = rng.normal(0, 2 * d**-0.5, (d, vocab))

    def new_cache(self):
        return KVCache(self.n_layers, self.n_heads, self.max_len, self.d_head)

    def _heads(self, x):
        # (m, d) -> (h, m, hd): head j owns features j*hd .. (j+1)*hd - 1
        return x.reshape(len(x), self.n_heads, self.d_head).transpose(1, 0, 2)

    def forward(self, ids, cache=None):
        ids = np.asarray(ids, dtype=np.int64)  # (m,)
        m = len(ids)
        t = 0 if cache is None else cache.length
        if t + m > self.max_len:  # checked before anything is written
            raise ValueError(f"{t} cached + {m} new tokens exceeds max_len={self.max_len}")

        x = self.tok_emb[ids] + self.pos_emb[t : t + m]  # (m, d): new tokens sit at t .. t+m-1
        # row i is position t+i: it may see columns 0 .. t+i, every later one is masked.
        # Built once per call for every layer; a decode step (m = 1) is the newest position
        # and sees every column, so it needs no mask at all
        future = np.arange(t + m) > t + np.arange(m)[:, None] if m > 1 else None  # (m, t+m)
        for layer in range(self.n_layers):
            a = layer_norm(x)
            q = self._heads(a @ self.w_q[layer])  # (h, m, hd): used now, never stored
            k = self._heads(a @ self.w_k[layer])  # (h, m, hd)
            v = self._heads(a @ self.w_v[layer])
            if cache is not None:
                k, v = cache.append(layer, k, v)  # (h, t+m, hd)
            s = q @ k.transpose(0, 2, 1) / math.sqrt(self.d_head)  # (h, m, t+m)
            if future is not None:
                s = np.where(future, -np.inf, s)
            heads = softmax(s) @ v  # (h, m, hd)
            x = x + heads.transpose(1, 0, 2).reshape(m, self.d_model) @ self.w_o[layer]  # (m, d)
            x = x + gelu(layer_norm(x) @ self.w_up[layer]) @ self.w_down[layer]  # (m, d)

        if cache is not None:
            cache.length = t + m  # once per call, after every layer has written slots t .. t+m-1
        self.positions += m
        self.scores += self.n_layers * self.n_heads * m * (t + m)
        return layer_norm(x) @ self.w_out  # (m, vocab)


def generate_no_cache(model, prompt, n_new):
    ids = [int(i) for i in prompt]
    step_logits = []
    for _ in range(n_new):
        logits = model.forward(ids)  # (len(ids), vocab): the whole sequence, every step
        step_logits.append(logits[-1])
        ids.append(int(np.argmax(logits[-1])))  # ties go to the smallest id
    return ids, np.array(step_logits).reshape(len(step_logits), model.vocab)  # (n_new, vocab)


def generate_with_cache(model, prompt, n_new):
    ids = [int(i) for i in prompt]
    cache = model.new_cache()
    step_logits = []
    pending = list(ids)  # tokens not yet in the cache: the prompt, then one sampled token
    for _ in range(n_new):
        logits = model.forward(pending, cache)  # prefill (m = P), then decode (m = 1)
        step_logits.append(logits[-1])
        ids.append(int(np.argmax(logits[-1])))
        pending = ids[-1:]
    # the last sampled token was never fed, so cache.length == P + n_new - 1
    return ids, np.array(step_logits).reshape(len(step_logits), model.vocab), cache
