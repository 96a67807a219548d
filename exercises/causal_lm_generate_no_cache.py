"""Stage 2: greedy generation that rebuilds every position from scratch on each step.

Read causal_lm_generate_no_cache.md first.
Check your work with `kata check causal_lm_generate_no_cache`.
"""
import math

import numpy as np


# Optional helpers: fill them in and use them, or delete them. Only the main
# function below is graded.


def layer_norm(x, eps=1e-5):
    """Normalise each row of x (shape (..., D)) over its last axis.

    Population variance, eps = 1e-5, no learned scale or shift:
        (x - mean) / sqrt(var + 1e-5)
    """
    raise NotImplementedError


def gelu(u):
    """Tanh approximation of GELU, elementwise:
        0.5 * u * (1 + tanh(sqrt(2 / pi) * (u + 0.044715 * u**3)))
    """
    raise NotImplementedError


def softmax(s):
    """Numerically stable softmax over the last axis (subtract the row maximum first).

    Entries equal to -inf get weight exactly 0.
    """
    raise NotImplementedError


def causal_lm_generate_no_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    """Greedy generation without a cache: each step re-runs the model on all ids so far.

    Inputs (float arrays share one dtype and are finite):
        prompt:         shape (P,), P >= 1, token ids in [0, V) stored as floats.
        w_emb:          shape (V, D), token embedding table.
        pos_embed:      shape (T, D), absolute position embeddings; row t is
                        added at position t. T = P + max(M - 1, 0) exactly, so
                        no row is left over.
        blocks_weights: shape (L, 6, D, D); block i holds, in this order,
                        w_q, w_k, w_v, w_o, w_mlp1, w_mlp2. L may be 0.
        w_head:         shape (D, V), maps a final hidden state to logits
                        (it is not w_emb.T).
        num_heads:      int H >= 1 dividing D; each head has width hd = D // H.
        max_new_tokens: int; M = max(0, max_new_tokens) ids are generated.

    Returns a 1-D integer array of length P + M: the prompt ids, then the M
    generated ids. With M = 0 that is just the prompt, converted to integers.

    The model, for a sequence of T ids:
        x = w_emb[ids] + pos_embed[:T]                       # (T, D)
        for each block:
            q, k, v = x @ w_q, x @ w_k, x @ w_v
            split q, k, v into H heads of hd consecutive features each
            causal attention per head: position i sees positions 0..i,
                scores scaled by 1 / sqrt(hd), stable softmax
            a = (heads joined back in their original order) @ w_o
            y = layer_norm(x + a)
            x = layer_norm(y + gelu(y @ w_mlp1) @ w_mlp2)
        logits = x @ w_head                                  # (T, V)
    No biases, no dropout, no final extra normalisation.

    Each step picks the id with the largest logit at the last position; on an
    exact tie, the smallest id wins. There is no end-of-sequence token: never
    stop early. Do not modify any input.
    """
    # TODO: write the forward pass (logits for every position), then loop M times:
    #       run it on the whole sequence so far, take the last row's best id, append.
    raise NotImplementedError("causal_lm_generate_no_cache: not implemented yet")
