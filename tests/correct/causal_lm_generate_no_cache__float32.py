"""Correct variant: every intermediate stays in the weights' dtype (Python-float constants only), ids returned via np.fromiter."""
import math
from itertools import chain

import numpy as np

_EPS = 1e-5
_GELU_C = math.sqrt(2.0 / math.pi)


def _ln(x):
    m = x.mean(axis=-1, keepdims=True)
    d = x - m
    return d / np.sqrt((d * d).mean(axis=-1, keepdims=True) + _EPS)


def _gelu(u):
    return 0.5 * u * (1.0 + np.tanh(_GELU_C * (u + 0.044715 * u * u * u)))


def _run(ids, w_emb, pos_embed, blocks_weights, w_head, num_heads):
    T, D = ids.size, w_emb.shape[1]
    hd = D // num_heads
    inv = 1.0 / math.sqrt(hd)
    x = (w_emb[ids] + pos_embed[:T]).astype(w_emb.dtype, copy=False)
    blocked = np.triu(np.ones((T, T), dtype=bool), 1)
    for n in range(blocks_weights.shape[0]):
        w_q, w_k, w_v, w_o, w_1, w_2 = blocks_weights[n]
        q = np.swapaxes((x @ w_q).reshape(T, num_heads, hd), 0, 1)
        k = np.swapaxes((x @ w_k).reshape(T, num_heads, hd), 0, 1)
        v = np.swapaxes((x @ w_v).reshape(T, num_heads, hd), 0, 1)
        sc = np.matmul(q, np.swapaxes(k, 1, 2)) * inv
        sc[:, blocked] = -np.inf
        sc = np.exp(sc - sc.max(axis=2, keepdims=True))
        sc /= sc.sum(axis=2, keepdims=True)
        heads = np.matmul(sc, v)
        merged = np.swapaxes(heads, 0, 1).reshape(T, D)
        y = _ln(x + merged @ w_o)
        x = _ln(y + _gelu(y @ w_1) @ w_2)
    return x[T - 1] @ w_head


def causal_lm_generate_no_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    start = [int(p) for p in np.asarray(prompt).ravel()]
    made = []
    for _ in range(max(0, int(max_new_tokens))):
        ids = np.fromiter(chain(start, made), dtype=np.int64)
        made.append(int(np.argmax(_run(ids, w_emb, pos_embed, blocks_weights, w_head, num_heads))))
    return np.fromiter(chain(start, made), dtype=np.int64, count=len(start) + len(made))
