"""Correct variant: per-block caches as preallocated {'k','v'} dicts, per-head loops in decode, everything kept in the weights' dtype."""
import math

import numpy as np

_SQ = math.sqrt(2.0 / math.pi)


def _ln(x):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5)


def _gelu(u):
    return 0.5 * u * (1.0 + np.tanh(_SQ * (u + 0.044715 * u ** 3)))


def _ffn(x, att, w_o, w_1, w_2):
    y = _ln(x + att @ w_o)
    return _ln(y + _gelu(y @ w_1) @ w_2)


def _prompt_pass(x, blocks_weights, caches, n_heads):
    T, D = x.shape
    hd = D // n_heads
    root = math.sqrt(hd)
    for b, cache in enumerate(caches):
        w_q, w_k, w_v, w_o, w_1, w_2 = blocks_weights[b]
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        att = np.empty_like(q)
        for h in range(n_heads):
            c = slice(h * hd, (h + 1) * hd)
            cache["k"][h, :T] = k[:, c]
            cache["v"][h, :T] = v[:, c]
            s = (q[:, c] @ k[:, c].T) / root
            s[np.triu_indices(T, 1)] = -np.inf
            e = np.exp(s - s.max(axis=1, keepdims=True))
            att[:, c] = (e / e.sum(axis=1, keepdims=True)) @ v[:, c]
        x = _ffn(x, att, w_o, w_1, w_2)
    return x[-1]


def _one_token(x, pos, blocks_weights, caches, n_heads):
    D = x.shape[1]
    hd = D // n_heads
    root = math.sqrt(hd)
    for b, cache in enumerate(caches):
        w_q, w_k, w_v, w_o, w_1, w_2 = blocks_weights[b]
        q, k, v = x @ w_q, x @ w_k, x @ w_v  # (1, D) each
        parts = []
        for h in range(n_heads):
            c = slice(h * hd, (h + 1) * hd)
            cache["k"][h, pos] = k[0, c]
            cache["v"][h, pos] = v[0, c]
            keys = cache["k"][h, : pos + 1]
            vals = cache["v"][h, : pos + 1]
            s = (keys @ q[0, c]) / root
            e = np.exp(s - s.max())
            parts.append((e / e.sum()) @ vals)
        x = _ffn(x, np.concatenate(parts)[None, :], w_o, w_1, w_2)
    return x[0]


def causal_lm_generate_with_kv_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    seq = np.asarray(prompt).astype(np.int64).reshape(-1)
    steps = max(0, max_new_tokens)
    if steps == 0:
        return seq
    P, D = seq.size, w_emb.shape[1]
    hd = D // num_heads
    dt = w_emb.dtype
    caches = [
        {"k": np.zeros((num_heads, P + steps - 1, hd), dtype=dt),
         "v": np.zeros((num_heads, P + steps - 1, hd), dtype=dt)}
        for _ in range(blocks_weights.shape[0])
    ]
    last = _prompt_pass(w_emb[seq] + pos_embed[:P], blocks_weights, caches, num_heads)
    picks = [int(np.argmax(last @ w_head))]
    for pos in range(P, P + steps - 1):
        row = (w_emb[picks[-1]] + pos_embed[pos])[None, :]
        picks.append(int(np.argmax(_one_token(row, pos, blocks_weights, caches, num_heads) @ w_head)))
    return np.concatenate([seq, np.asarray(picks, dtype=np.int64)])
