"""Correct variant: per-block (H, T, hd) caches that grow by np.concatenate, with separate prefill and unmasked decode functions."""
import math

import numpy as np


def _ln(x):
    mu = x.mean(axis=-1, keepdims=True)
    sd = np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5)
    return (x - mu) / sd


def _gelu(u):
    return 0.5 * u * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u ** 3)))


def _probs(s):
    z = np.exp(s - np.max(s, axis=-1, keepdims=True))
    return z / np.sum(z, axis=-1, keepdims=True)


def _split(m, n_heads):
    """(T, D) -> (H, T, hd), consecutive features per head."""
    T, D = m.shape
    return m.reshape(T, n_heads, D // n_heads).swapaxes(0, 1)


def _merge(m):
    """(H, T, hd) -> (T, H*hd)."""
    H, T, hd = m.shape
    return m.swapaxes(0, 1).reshape(T, H * hd)


def _mlp_tail(x, att, w_o, w_1, w_2):
    y = _ln(x + att @ w_o)
    return _ln(y + _gelu(y @ w_1) @ w_2)


def _prefill(x, blocks_weights, n_heads):
    """Runs the whole prompt once; returns final states and a list of [K, V] per block."""
    T, D = x.shape
    hd = D // n_heads
    ahead = np.triu(np.ones((T, T), dtype=bool), k=1)
    store = []
    for i in range(blocks_weights.shape[0]):
        w_q, w_k, w_v, w_o, w_1, w_2 = blocks_weights[i]
        q = _split(x @ w_q, n_heads)
        k = _split(x @ w_k, n_heads)
        v = _split(x @ w_v, n_heads)
        s = (q @ k.swapaxes(1, 2)) / math.sqrt(hd)
        s[:, ahead] = -np.inf
        x = _mlp_tail(x, _merge(_probs(s) @ v), w_o, w_1, w_2)
        store.append([np.ascontiguousarray(k), np.ascontiguousarray(v)])
    return x, store


def _decode(x, blocks_weights, n_heads, store):
    """One token (1, D); appends its k/v to every block's cache and attends with no mask."""
    hd = x.shape[1] // n_heads
    for i in range(blocks_weights.shape[0]):
        w_q, w_k, w_v, w_o, w_1, w_2 = blocks_weights[i]
        q = _split(x @ w_q, n_heads)  # (H, 1, hd)
        store[i][0] = np.concatenate((store[i][0], _split(x @ w_k, n_heads)), axis=1)
        store[i][1] = np.concatenate((store[i][1], _split(x @ w_v, n_heads)), axis=1)
        s = (q @ store[i][0].swapaxes(1, 2)) / math.sqrt(hd)  # (H, 1, T)
        x = _mlp_tail(x, _merge(_probs(s) @ store[i][1]), w_o, w_1, w_2)
    return x


def causal_lm_generate_with_kv_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    ids = [int(t) for t in np.asarray(prompt).reshape(-1)]
    n_gen = max(0, max_new_tokens)
    if n_gen == 0:
        return np.asarray(ids, dtype=np.int64)
    P = len(ids)
    x, store = _prefill(w_emb[np.asarray(ids)] + pos_embed[:P], blocks_weights, num_heads)
    ids.append(int(np.argmax(x[-1] @ w_head)))
    for pos in range(P, P + n_gen - 1):
        row = w_emb[ids[-1]][None, :] + pos_embed[pos][None, :]
        row = _decode(row, blocks_weights, num_heads, store)
        ids.append(int(np.argmax(row[0] @ w_head)))
    return np.asarray(ids, dtype=np.int64)
