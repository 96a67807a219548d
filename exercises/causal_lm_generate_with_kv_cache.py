"""Stage 3: greedy generation with one key/value cache per block.

Read causal_lm_generate_with_kv_cache.md first.
Check your work with `kata check causal_lm_generate_with_kv_cache`.
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


def causal_lm_generate_with_kv_cache(prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
    """Generate the same tokens as stage 2, but reuse each block's keys and values.

    Inputs, output and model are exactly those of stage 2:
        prompt:         shape (P,), P >= 1, token ids in [0, V) stored as floats.
        w_emb:          shape (V, D), token embedding table.
        pos_embed:      shape (T, D) with T = P + max(M - 1, 0) exactly.
        blocks_weights: shape (L, 6, D, D); per block w_q, w_k, w_v, w_o,
                        w_mlp1, w_mlp2, in that order. L may be 0.
        w_head:         shape (D, V), final projection to logits.
        num_heads:      int H >= 1 dividing D; head width hd = D // H,
                        heads are runs of hd consecutive features.
        max_new_tokens: int; M = max(0, max_new_tokens) ids are generated.
    Returns a 1-D integer array of length P + M: prompt ids, then M new ids
    (largest logit; smallest id on a tie; no early stop). Post-LN blocks with
    layer_norm (population variance, eps 1e-5, no scale or shift) and tanh
    GELU, attention scores scaled by 1 / sqrt(hd).

    How the work must be done:
        * Prefill: run all P prompt tokens through the blocks once (causal
          mask), storing every block's keys and values in that block's cache.
          The last prompt position's logits give the first new id.
        * Decode: feed only the newest id, at position P, then P+1, ...
          Compute its q, k, v, add k and v to each block's cache, and attend
          over the whole cache (no mask needed for a single query).
        * Each block projects every token to keys and values exactly once.
          The last generated id is never fed back, so each cache ends with
          P + M - 1 positions (and none at all when M = 0).
        * The grader counts the rows you multiply by each block's w_k and
          w_v. Use the weight arrays as you are given them (indexing and
          slicing are fine); np.asarray / np.array copies hide that work and
          fail the check.
        * Write layer norm, GELU, attention and the cache yourself: no
          packaged transformer layers or generation helpers.
        * Do not modify any input.
    """
    # TODO: prefill the prompt once, filling one key cache and one value cache per block.
    # TODO: then decode one token per step at positions P, P+1, ..., reading the caches.
    raise NotImplementedError("causal_lm_generate_with_kv_cache: not implemented yet")
