"""The comparison for stage 4: a straightforward tiny decoder, as a first working version is written.

The same model as solutions/tiny_decoder.py (it borrows a reference model's weights, and
keeps the same preallocated cache), written the obvious way:

- it builds a fresh causal mask on every call, as the (t+m, t+m) triangle cut to its last m
  rows, and applies it in every layer, also in a decode step where nothing is masked;
- layer norm calls x.mean() and x.var() (var computes the mean a second time);
- q, k and v are three products, every intermediate is a new array, every call.

It is the project's own code, not a mistake: its logits equal the reference's to 1e-12 (the
benchmark asserts it). The benchmark times its decode step against the reference's.
"""
import math

import numpy as np


def layer_norm(x, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def gelu(u):
    return 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u * u * u)))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class Cache:
    def __init__(self, n_layers, n_heads, max_len, d_head):
        self.k = np.zeros((n_layers, n_heads, max_len, d_head))
        self.v = np.zeros((n_layers, n_heads, max_len, d_head))
        self.length = 0


class StraightforwardDecoder:
    """Runs on the weights of a reference TinyDecoder, so both models are the same by construction."""

    WEIGHTS = ("tok_emb", "pos_emb", "w_q", "w_k", "w_v", "w_o", "w_up", "w_down", "w_out")

    def __init__(self, reference):
        for name in ("vocab", "d_model", "n_heads", "n_layers", "d_head", "max_len", *self.WEIGHTS):
            setattr(self, name, getattr(reference, name))

    def new_cache(self):
        return Cache(self.n_layers, self.n_heads, self.max_len, self.d_head)

    def split_heads(self, x):
        return x.reshape(x.shape[0], self.n_heads, self.d_head).transpose(1, 0, 2)

    def forward(self, ids, cache):
        ids = np.array(ids)
        m = len(ids)
        t = cache.length
        if t + m > self.max_len:
            raise ValueError("too long")
        x = self.tok_emb[ids] + self.pos_emb[t:t + m]
        mask = np.triu(np.ones((t + m, t + m), dtype=bool), k=1)[t:]  # (m, t+m)
        for layer in range(self.n_layers):
            a = layer_norm(x)
            q = self.split_heads(a @ self.w_q[layer])
            k = self.split_heads(a @ self.w_k[layer])
            v = self.split_heads(a @ self.w_v[layer])
            cache.k[layer, :, t:t + m] = k
            cache.v[layer, :, t:t + m] = v
            keys = cache.k[layer, :, :t + m]
            values = cache.v[layer, :, :t + m]
            scores = q @ keys.transpose(0, 2, 1) / math.sqrt(self.d_head)
            scores = np.where(mask, -np.inf, scores)
            out = softmax(scores) @ values
            out = out.transpose(1, 0, 2).reshape(m, self.d_model)
            x = x + out @ self.w_o[layer]
            h = gelu(layer_norm(x) @ self.w_up[layer])
            x = x + h @ self.w_down[layer]
        cache.length = t + m
        return layer_norm(x) @ self.w_out


def generate_with_cache(model, prompt, n_new):
    ids = list(prompt)
    cache = model.new_cache()
    logits_per_step = []
    feed = list(ids)
    for _ in range(n_new):
        logits = model.forward(feed, cache)
        logits_per_step.append(logits[-1])
        ids.append(int(np.argmax(logits[-1])))
        feed = [ids[-1]]
    return ids, np.array(logits_per_step), cache
