"""A correct greedy causal LM (stages 2 and 3) cut into small methods, for the mistake files.

Not a reference solution: each mistake file subclasses CausalLM, rewrites one method
the way a learner might get it wrong, and exposes `generate` (stage 2, full recompute
every step) or `generate_cached` (stage 3, prefill then one token per step with a
per-block cache that grows by appending) under the stage's function name.

The weights are used exactly as received: `blocks_weights[layer]` and its six
matrices are views, never copies, so a grader that counts the rows multiplied by
each block's w_k and w_v sees the real work.
"""
import math
from types import SimpleNamespace

import numpy as np


class CausalLM:
    # -- entry points ---------------------------------------------------------------
    def generate(self, prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
        ids, P, n = self.ids_in(prompt), len(prompt), self.count(max_new_tokens)
        if n == 0:
            return self.no_new_tokens(prompt, ids)
        m = self.model(w_emb, pos_embed, blocks_weights, w_head, num_heads)
        while self.keep_going(ids, P, n):
            logits = self.forward(m, ids, np.arange(len(ids)))  # the whole sequence, every step
            ids.append(self.pick(self.next_logits(logits)))
        return self.ids_out(prompt, ids)

    def generate_cached(self, prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
        ids, P, n = self.ids_in(prompt), len(prompt), self.count(max_new_tokens)
        if n == 0:
            return self.no_new_tokens(prompt, ids)
        m = self.model(w_emb, pos_embed, blocks_weights, w_head, num_heads)
        cache = self.new_cache(m)
        logits = self.forward(m, ids, np.arange(P), cache)  # prefill: every prompt token once
        ids.append(self.pick(self.next_logits(logits)))
        while self.keep_going(ids, P, n):
            logits = self.decode(m, ids, P, cache)  # only the newest token goes through
            ids.append(self.pick(self.next_logits(logits)))
        return self.ids_out(prompt, ids)

    # -- inputs, outputs, the loop ----------------------------------------------------
    def ids_in(self, prompt):
        return [int(i) for i in np.asarray(prompt).astype(np.int64)]

    def count(self, max_new_tokens):
        return max(0, int(max_new_tokens))

    def no_new_tokens(self, prompt, ids):
        return self.ids_out(prompt, ids)

    def ids_out(self, prompt, ids):
        return np.array(ids, dtype=np.int64)

    def keep_going(self, ids, P, n):
        return len(ids) < P + n

    def next_logits(self, logits):
        return logits[-1]  # the newest position predicts the next token

    def pick(self, row):
        return int(np.argmax(row))  # the first maximum: ties go to the smallest id

    def sizes(self, w_emb, blocks_weights, num_heads):
        D = w_emb.shape[1]
        return len(blocks_weights), D, D // num_heads

    def model(self, w_emb, pos_embed, blocks_weights, w_head, num_heads):
        n_blocks, D, hd = self.sizes(w_emb, blocks_weights, num_heads)
        return SimpleNamespace(w_emb=w_emb, pos_embed=pos_embed, blocks=blocks_weights, w_head=w_head,
                               H=num_heads, n_blocks=n_blocks, D=D, hd=hd, dtype=w_emb.dtype)

    # -- one pass through the model ----------------------------------------------------
    def forward(self, m, ids, positions, cache=None):
        """Logits (len(ids), V) for tokens `ids` fed at `positions`; with a cache, their K/V are appended."""
        x = self.embed(m, ids, positions)
        for layer in range(m.n_blocks):
            x = self.block(m, x, m.blocks[layer], layer, cache)
        return self.logits(m, x)

    def decode(self, m, ids, P, cache):
        return self.forward(m, ids[-1:], [self.position_of(ids, P)], cache)

    def position_of(self, ids, P):
        return len(ids) - 1  # the newest token's index in the sequence

    def embed(self, m, ids, positions):
        return m.w_emb[np.asarray(ids)] + m.pos_embed[np.asarray(positions)]

    def logits(self, m, x):
        return x @ m.w_head

    def block(self, m, x, w, layer, cache):
        w_q, w_k, w_v, w_o, w_mlp1, w_mlp2 = w
        q = self.queries(m, x, w_q)
        k, v = self.keys_values(m, x, w_k, w_v, layer, cache)
        a = self.merge_heads(self.attention(q, k, v, self.causal_mask(len(x), k.shape[1]))) @ w_o
        y = self.layer_norm(x + a)
        return self.layer_norm(y + self.gelu(y @ w_mlp1) @ w_mlp2)

    def queries(self, m, x, w_q):
        return self.split_heads(x @ w_q, m.H) / self.score_scale(m)  # scaling q scales every score

    def score_scale(self, m):
        return math.sqrt(m.hd)

    def keys_values(self, m, x, w_k, w_v, layer, cache):
        k, v = self.split_heads(x @ w_k, m.H), self.split_heads(x @ w_v, m.H)
        if cache is None:
            return k, v
        self.append(cache, layer, k, v)
        return self.read(cache, layer)

    def split_heads(self, t, H):
        T, D = t.shape
        return t.reshape(T, H, D // H).transpose(1, 0, 2)  # (H, T, hd)

    def merge_heads(self, h):
        H, T, hd = h.shape
        return h.transpose(1, 0, 2).reshape(T, H * hd)  # (T, D)

    def causal_mask(self, n_queries, n_keys):
        """True where a query may not look: the queries are the last n_queries of the n_keys positions."""
        key_pos = np.arange(n_keys)[None, :]
        query_pos = np.arange(n_keys - n_queries, n_keys)[:, None]
        return key_pos > query_pos

    def attention(self, q, k, v, future):
        scores = np.where(future, -np.inf, q @ k.transpose(0, 2, 1))  # (H, Tq, Tk)
        return self.softmax(scores) @ v  # (H, Tq, hd)

    def softmax(self, s):
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def layer_norm(self, x, eps=1e-5):
        return (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)

    def gelu(self, u):
        return 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u**3)))

    # -- the cache: one {K, V} per block, (H, T, hd) each, grown by appending ----------
    def new_cache(self, m):
        return [{"K": np.zeros((m.H, 0, m.hd), m.dtype), "V": np.zeros((m.H, 0, m.hd), m.dtype)}
                for _ in range(m.n_blocks)]

    def append(self, cache, layer, k, v):
        c = cache[layer]
        c["K"] = np.concatenate([c["K"], k], axis=1)
        c["V"] = np.concatenate([c["V"], v], axis=1)

    def read(self, cache, layer):
        return cache[layer]["K"], cache[layer]["V"]
