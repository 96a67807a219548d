"""Correct variant: Python loops over heads (column slices) and over query rows, each row normalized over keys 0..i only, no -inf."""
import math

import numpy as np


def _layernorm(x):
    mu = np.mean(x, axis=1, keepdims=True)
    var = np.mean((x - mu) ** 2, axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5)


def _gelu(u):
    inner = math.sqrt(2.0 / math.pi) * (u + 0.044715 * u ** 3)
    return 0.5 * u * (1.0 + np.tanh(inner))


def _attend_one_head(qh, kh, vh, scale):
    T, width = qh.shape
    rows = []
    for i in range(T):
        sc = (kh[: i + 1] @ qh[i]) / scale       # only keys 0..i exist for this row
        ex = np.exp(sc - np.max(sc))
        rows.append((ex / np.sum(ex)) @ vh[: i + 1])
    return np.stack(rows) if rows else np.zeros((0, width), dtype=qh.dtype)


def _last_logits(ids, w_emb, pos_embed, blocks_weights, w_head, num_heads):
    T = len(ids)
    D = w_emb.shape[1]
    hd = D // num_heads
    scale = math.sqrt(hd)
    x = w_emb[ids, :] + pos_embed[0:T, :]
    for block in blocks_weights:
        w_q, w_k, w_v, w_o, w_up, w_down = block
        q_all, k_all, v_all = x @ w_q, x @ w_k, x @ w_v
        per_head = []
        for h in range(num_heads):
            cols = slice(h * hd, (h + 1) * hd)
            per_head.append(_attend_one_head(q_all[:, cols], k_all[:, cols], v_all[:, cols], scale))
        att = np.concatenate(per_head, axis=1) @ w_o
        y = _layernorm(x + att)
        x = _layernorm(y + _gelu(y @ w_up) @ w_down)
    return x[-1] @ w_head


def causal_lm_generate_no_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    tokens = [int(t) for t in np.asarray(prompt).reshape(-1)]
    count = 0
    while count < max_new_tokens:
        row = _last_logits(np.array(tokens, dtype=np.int64), w_emb, pos_embed, blocks_weights, w_head, num_heads)
        best = int(np.flatnonzero(row == row.max())[0])
        tokens.append(best)
        count += 1
    return np.array(tokens, dtype=np.int64)
