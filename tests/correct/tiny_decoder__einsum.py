"""Stage 4 written another way: einsum for every product, per-head weight views instead of
reshaping activations, the mask from np.tril with its diagonal shifted by t, and the cache
length kept in a private counter behind a property."""
import math

import numpy as np


def _norm(x, eps=1e-5):
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.einsum("...d,...d->...", centred, centred)[..., None] / x.shape[-1] + eps)


def _gelu(u):
    return 0.5 * u * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u * u * u)))


def kv_bytes(layers, heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    return int(np.prod([2, layers, heads, head_dim, seq_len, batch, bytes_per_value], dtype=np.int64))


class KVCache:
    def __init__(self, n_layers, n_heads, max_len, d_head):
        shape = (n_layers, n_heads, max_len, d_head)
        self.k, self.v = np.zeros(shape), np.zeros(shape)
        self._filled = 0

    @property
    def length(self):
        return self._filled

    @length.setter
    def length(self, n):
        self._filled = int(n)

    def append(self, layer, k_new, v_new):
        start, stop = self.length, self.length + k_new.shape[1]
        if stop > self.k.shape[2]:
            raise ValueError(f"no room: slots {start}..{stop - 1} asked for, max_len is {self.k.shape[2]}")
        for store, new in ((self.k, k_new), (self.v, v_new)):
            store[layer, :, start:stop] = new
        return self.k[layer, :, :stop], self.v[layer, :, :stop]


class TinyDecoder:
    def __init__(self, vocab=96, d_model=128, n_heads=4, n_layers=4, max_len=256, seed=0):
        if d_model % n_heads:
            raise ValueError(f"d_model={d_model} is not a multiple of n_heads={n_heads}")
        self.vocab, self.d_model, self.n_heads, self.n_layers = vocab, d_model, n_heads, n_layers
        self.d_head, self.max_len = d_model // n_heads, max_len
        self.positions = 0
        self.scores = 0

        rng = np.random.default_rng(seed)
        d, L = d_model, n_layers
        self.tok_emb = rng.normal(0, 1, (vocab, d))
        self.pos_emb = rng.normal(0, 1, (max_len, d))
        self.w_q = rng.normal(0, d**-0.5, (L, d, d))
        self.w_k = rng.normal(0, d**-0.5, (L, d, d))
        self.w_v = rng.normal(0, d**-0.5, (L, d, d))
        self.w_o = rng.normal(0, d**-0.5, (L, d, d))
        self.w_up = rng.normal(0, d**-0.5, (L, d, 4 * d))
        self.w_down = rng.normal(0, (4 * d) ** -0.5, (L, 4 * d, d))
        self.w_out = rng.normal(0, 2 * d**-0.5, (d, vocab))

    def new_cache(self):
        return KVCache(self.n_layers, self.n_heads, self.max_len, self.d_head)

    def forward(self, ids, cache=None):
        ids = [int(i) for i in ids]
        t, m = (cache.length if cache is not None else 0), len(ids)
        if t + m > self.max_len:
            raise ValueError(f"positions {t}..{t + m - 1} do not fit in max_len={self.max_len}")
        h, hd, d = self.n_heads, self.d_head, self.d_model
        allowed = np.tril(np.ones((m, t + m), dtype=bool), k=t)  # row i: columns 0 .. t + i
        x = self.tok_emb[ids] + self.pos_emb[t : t + m]
        for layer in range(self.n_layers):
            a = _norm(x)
            # (d, d) weights seen as (d, h, hd): head j owns output features j*hd .. (j+1)*hd - 1
            q, k, v = (np.einsum("md,dhe->hme", a, w[layer].reshape(d, h, hd))
                       for w in (self.w_q, self.w_k, self.w_v))
            if cache is not None:
                k, v = cache.append(layer, k, v)
            s = np.einsum("hqe,hke->hqk", q, k) / math.sqrt(hd)
            s = np.where(allowed, s, -np.inf)
            w = np.exp(s - s.max(axis=-1, keepdims=True))
            w /= w.sum(axis=-1, keepdims=True)
            ctx = np.einsum("hqk,hke->hqe", w, v)
            x = x + np.einsum("hqe,hef->qf", ctx, self.w_o[layer].reshape(h, hd, d))
            up = _gelu(np.einsum("md,du->mu", _norm(x), self.w_up[layer]))
            x = x + np.einsum("mu,ud->md", up, self.w_down[layer])
        if cache is not None:
            cache.length = t + m
        self.positions += m
        self.scores += self.n_layers * h * m * (t + m)
        return np.einsum("md,dv->mv", _norm(x), self.w_out)


def _greedy(model, prompt, n_new, cache):
    seq = list(map(int, prompt))
    out = np.empty((max(n_new, 0), model.vocab))
    feed = seq
    for step in range(n_new):
        row = model.forward(feed, cache)[-1] if cache is not None else model.forward(seq)[-1]
        out[step] = row
        seq.append(int(row.argmax()))
        feed = seq[-1:]
    return seq, out


def generate_no_cache(model, prompt, n_new):
    return _greedy(model, prompt, n_new, None)


def generate_with_cache(model, prompt, n_new):
    cache = model.new_cache()
    ids, logits = _greedy(model, prompt, n_new, cache)
    return ids, logits, cache
