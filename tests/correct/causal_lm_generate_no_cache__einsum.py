"""Correct variant: einsum for every projection and for attention on (T, H, hd) heads, no transposes, causal mask from np.tril."""
import math

import numpy as np


def _norm(x):
    centered = x - x.mean(axis=-1, keepdims=True)
    return centered / np.sqrt((centered * centered).mean(axis=-1, keepdims=True) + 1e-5)


def _gelu_tanh(u):
    return 0.5 * u * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * (u * u * u))))


def _logits_all(ids, w_emb, pos_embed, blocks_weights, w_head, num_heads):
    T = ids.shape[0]
    D = w_emb.shape[1]
    hd = D // num_heads
    x = np.take(w_emb, ids, axis=0) + pos_embed[:T]
    visible = np.tril(np.ones((T, T), dtype=bool))  # key s visible from query t when s <= t
    for b in range(blocks_weights.shape[0]):
        wq, wk, wv, wo, w1, w2 = (blocks_weights[b, j] for j in range(6))
        q = np.einsum("td,de->te", x, wq).reshape(T, num_heads, hd)
        k = np.einsum("td,de->te", x, wk).reshape(T, num_heads, hd)
        v = np.einsum("td,de->te", x, wv).reshape(T, num_heads, hd)
        s = np.einsum("thd,shd->hts", q, k) / math.sqrt(hd)
        s = np.where(visible, s, -np.inf)
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        s = s / s.sum(axis=-1, keepdims=True)
        mixed = np.einsum("hts,shd->thd", s, v).reshape(T, D)
        y = _norm(x + np.einsum("td,de->te", mixed, wo))
        x = _norm(y + np.einsum("td,de->te", _gelu_tanh(np.einsum("td,de->te", y, w1)), w2))
    return np.einsum("td,dv->tv", x, w_head)


def causal_lm_generate_no_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    seq = np.array([int(round(float(t))) for t in np.ravel(prompt)], dtype=np.int64)
    steps = max_new_tokens if max_new_tokens > 0 else 0
    for _ in range(steps):
        last = _logits_all(seq, w_emb, pos_embed, blocks_weights, w_head, num_heads)[-1]
        seq = np.concatenate([seq, np.array([np.argmax(last)], dtype=np.int64)])
    return seq
