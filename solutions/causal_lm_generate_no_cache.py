"""Reference solution, stage 2: greedy generation that recomputes the whole sequence at every step."""
import math

import numpy as np


def layer_norm(x, eps=1e-5):
    # sums divided by n: the arithmetic of x.mean() and x.var(), without their Python bookkeeping,
    # which costs more than the sums on a single row (a decode step); and the mean is computed once
    n = x.shape[-1]
    centred = x - x.sum(axis=-1, keepdims=True) / n
    var = (centred * centred).sum(axis=-1, keepdims=True) / n  # population variance
    return centred / np.sqrt(var + eps)


def gelu(u):
    # u * u * u, not u**3: numpy's general power is about 50x slower here
    return 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u * u * u)))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def forward(ids, w_emb, pos_embed, blocks_weights, w_head, num_heads):
    """Logits for every position of `ids`, positions 0 .. T-1."""
    T, D = len(ids), w_emb.shape[1]
    hd = D // num_heads
    x = w_emb[ids] + pos_embed[:T]  # (T, D)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)  # True above the diagonal
    for w_q, w_k, w_v, w_o, w_mlp1, w_mlp2 in blocks_weights:
        # (T, D) -> (T, H, hd) -> (H, T, hd): consecutive features form a head
        q = (x @ w_q).reshape(T, num_heads, hd).transpose(1, 0, 2)
        k = (x @ w_k).reshape(T, num_heads, hd).transpose(1, 0, 2)
        v = (x @ w_v).reshape(T, num_heads, hd).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(hd)  # (H, T, T)
        scores = np.where(future, -np.inf, scores)
        heads = softmax(scores) @ v  # (H, T, hd)
        a = heads.transpose(1, 0, 2).reshape(T, D) @ w_o  # (T, D)
        y = layer_norm(x + a)
        x = layer_norm(y + gelu(y @ w_mlp1) @ w_mlp2)
    return x @ w_head  # (T, V)


def causal_lm_generate_no_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    ids = np.asarray(prompt).astype(np.int64)  # (P,) ids arrive as floats
    for _ in range(max(0, max_new_tokens)):
        logits = forward(ids, w_emb, pos_embed, blocks_weights, w_head, num_heads)  # (T, V)
        next_id = np.argmax(logits[-1])  # the first maximum: ties go to the smallest id
        ids = np.append(ids, next_id)  # (T+1,)
    return ids
