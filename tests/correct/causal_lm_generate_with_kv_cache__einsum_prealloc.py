"""Correct variant: preallocated (L, H, P+M-1, hd) caches, einsum everywhere, a position counter and a dedicated decode-step function."""
import math

import numpy as np


def _layer_norm(x):
    c = x - np.mean(x, axis=-1, keepdims=True)
    return c / np.sqrt(np.einsum("td,td->t", c, c)[:, None] / x.shape[-1] + 1e-5)


def _gelu(u):
    return 0.5 * u * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u * u * u)))


def _softmax_last(s):
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    return s / s.sum(axis=-1, keepdims=True)


def _block(x, weights, cache_k, cache_v, start, n_heads, causal):
    """x: (m, D) tokens at positions start..start+m-1; writes their k/v into cache slots."""
    w_q, w_k, w_v, w_o, w_1, w_2 = weights
    m, D = x.shape
    hd = D // n_heads
    stop = start + m
    q = np.einsum("md,de->me", x, w_q).reshape(m, n_heads, hd)
    cache_k[:, start:stop] = np.einsum("md,de->me", x, w_k).reshape(m, n_heads, hd).swapaxes(0, 1)
    cache_v[:, start:stop] = np.einsum("md,de->me", x, w_v).reshape(m, n_heads, hd).swapaxes(0, 1)
    s = np.einsum("mhd,hsd->hms", q, cache_k[:, :stop]) / math.sqrt(hd)
    if causal:
        allowed = np.tril(np.ones((m, stop), dtype=bool), k=start)
        s = np.where(allowed, s, -np.inf)
    ctx = np.einsum("hms,hsd->mhd", _softmax_last(s), cache_v[:, :stop]).reshape(m, D)
    y = _layer_norm(x + np.einsum("md,de->me", ctx, w_o))
    return _layer_norm(y + np.einsum("md,de->me", _gelu(np.einsum("md,de->me", y, w_1)), w_2))


def _prefill(ids, w_emb, pos_embed, blocks_weights, caches_k, caches_v, n_heads):
    x = w_emb[ids] + pos_embed[: len(ids)]
    for layer in range(blocks_weights.shape[0]):
        x = _block(x, blocks_weights[layer], caches_k[layer], caches_v[layer], 0, n_heads, True)
    return x[-1]


def _decode_step(token, position, w_emb, pos_embed, blocks_weights, caches_k, caches_v, n_heads):
    x = (w_emb[token] + pos_embed[position])[None, :]
    for layer in range(blocks_weights.shape[0]):
        x = _block(x, blocks_weights[layer], caches_k[layer], caches_v[layer], position, n_heads, False)
    return x[0]


def causal_lm_generate_with_kv_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    out = np.asarray(prompt).astype(np.int64).ravel()
    if max_new_tokens <= 0:
        return out
    P, M, D = out.shape[0], int(max_new_tokens), w_emb.shape[1]
    shape = (blocks_weights.shape[0], num_heads, P + M - 1, D // num_heads)
    caches_k = np.zeros(shape, dtype=w_emb.dtype)
    caches_v = np.zeros(shape, dtype=w_emb.dtype)

    h = _prefill(out, w_emb, pos_embed, blocks_weights, caches_k, caches_v, num_heads)
    generated = [int(np.argmax(np.einsum("d,dv->v", h, w_head)))]
    position = P
    while len(generated) < M:
        h = _decode_step(generated[-1], position, w_emb, pos_embed, blocks_weights, caches_k, caches_v, num_heads)
        position += 1
        generated.append(int(np.argmax(np.einsum("d,dv->v", h, w_head))))
    return np.concatenate([out, np.array(generated, dtype=np.int64)])
