"""Fuses w_q | w_k | w_v into one (D, 3D) matrix per block, made once, and splits each product in three."""
import math

import numpy as np


def _norm(x):
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-5)


def _gelu(u):
    return 0.5 * u * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u ** 3)))


def _attend(q, k, v, first_position):
    """q: (H, m, hd) at positions first_position.., k, v: (H, n, hd) at positions 0..n-1."""
    s = np.einsum("hmd,hnd->hmn", q, k) / math.sqrt(q.shape[-1])
    rows = first_position + np.arange(q.shape[1])[:, None]
    s = np.where(np.arange(k.shape[1])[None, :] <= rows, s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    return np.einsum("hmn,hnd->hmd", w / w.sum(-1, keepdims=True), v)


def causal_lm_generate_with_kv_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    out = [int(t) for t in np.asarray(prompt)]
    steps = max(0, int(max_new_tokens))
    if steps == 0:
        return np.array(out, dtype=np.int64)
    D = w_emb.shape[1]
    H, hd = num_heads, D // num_heads
    fused = [np.concatenate([b[0], b[1], b[2]], axis=1) for b in blocks_weights]  # (D, 3D) per block
    keys = [np.zeros((H, 0, hd), dtype=w_emb.dtype) for _ in fused]
    values = [np.zeros((H, 0, hd), dtype=w_emb.dtype) for _ in fused]

    def feed(ids, start):
        x = w_emb[ids] + pos_embed[start:start + len(ids)]
        for i, block in enumerate(blocks_weights):
            q, k, v = np.split(x @ fused[i], 3, axis=1)  # one product, three (m, D) parts
            q, k, v = (a.reshape(len(ids), H, hd).transpose(1, 0, 2) for a in (q, k, v))
            keys[i] = np.concatenate([keys[i], k], axis=1)
            values[i] = np.concatenate([values[i], v], axis=1)
            a = _attend(q, keys[i], values[i], start).transpose(1, 0, 2).reshape(len(ids), D) @ block[3]
            y = _norm(x + a)
            x = _norm(y + _gelu(y @ block[4]) @ block[5])
        return x[-1] @ w_head

    logits = feed(np.array(out), 0)
    for step in range(steps):
        out.append(int(np.argmax(logits)))
        if step + 1 < steps:
            logits = feed(np.array(out[-1:]), len(out) - 1)
    return np.array(out, dtype=np.int64)
