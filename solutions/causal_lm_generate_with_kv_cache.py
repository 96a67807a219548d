"""Reference solution, stage 3: greedy generation with a key/value cache per block.

The prompt goes through the blocks once (prefill); after that each step feeds
only the newest token, whose keys and values are written into the cache.
"""
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


def forward_new(ids, t, K, V, w_emb, pos_embed, blocks_weights, w_head, num_heads):
    """Logits for m new tokens at positions t .. t+m-1; their keys and values go into K, V."""
    m, D = len(ids), w_emb.shape[1]
    hd = D // num_heads
    x = w_emb[ids] + pos_embed[t : t + m]  # (m, D)
    # new token i sits at position t+i and may see cached columns 0 .. t+i; a decode step
    # (m = 1) is the newest position and sees every column, so it needs no mask at all
    future = np.arange(t + m)[None, :] > t + np.arange(m)[:, None] if m > 1 else None  # (m, t+m)
    for layer, (w_q, w_k, w_v, w_o, w_mlp1, w_mlp2) in enumerate(blocks_weights):
        q = (x @ w_q).reshape(m, num_heads, hd).transpose(1, 0, 2)  # (H, m, hd)
        K[layer, :, t : t + m] = (x @ w_k).reshape(m, num_heads, hd).transpose(1, 0, 2)
        V[layer, :, t : t + m] = (x @ w_v).reshape(m, num_heads, hd).transpose(1, 0, 2)
        k, v = K[layer, :, : t + m], V[layer, :, : t + m]  # (H, t+m, hd): views, no copy
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(hd)  # (H, m, t+m)
        if future is not None:
            scores = np.where(future, -np.inf, scores)
        heads = softmax(scores) @ v  # (H, m, hd)
        a = heads.transpose(1, 0, 2).reshape(m, D) @ w_o  # (m, D)
        y = layer_norm(x + a)
        x = layer_norm(y + gelu(y @ w_mlp1) @ w_mlp2)
    return x @ w_head  # (m, V)


def causal_lm_generate_with_kv_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    ids = np.asarray(prompt).astype(np.int64)  # (P,) ids arrive as floats
    n_new = max(0, max_new_tokens)
    if n_new == 0:
        return ids
    P, D = len(ids), w_emb.shape[1]
    n_blocks, hd = len(blocks_weights), D // num_heads
    # the last generated token is never fed back, so P + n_new - 1 slots suffice
    K = np.zeros((n_blocks, num_heads, P + n_new - 1, hd), dtype=w_emb.dtype)  # (L, H, T, hd)
    V = np.zeros_like(K)
    weights = (w_emb, pos_embed, blocks_weights, w_head, num_heads)

    logits = forward_new(ids, 0, K, V, *weights)  # prefill: (P, V)
    out = [*ids, np.argmax(logits[-1])]  # ties go to the smallest id
    for t in range(P, P + n_new - 1):  # decode: one token at position t
        logits = forward_new(np.array(out[-1:]), t, K, V, *weights)  # (1, V)
        out.append(np.argmax(logits[-1]))
    return np.array(out, dtype=np.int64)
