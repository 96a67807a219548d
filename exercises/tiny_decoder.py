"""Stage 4: a tiny decoder with a preallocated KV cache.

Read tiny_decoder.md first. Replace every `raise NotImplementedError` below;
keep the names, signatures and shapes exactly as they are.

The weights and the three helpers (layer_norm, gelu, softmax) are given, so
the work is the cache and the forward pass. Everything is float64.

Notation used in the docstrings:
    t   tokens already in the cache when forward is called (0 without a cache)
    m   new tokens passed to this call
    L   n_layers     h   n_heads     hd   d_head = d_model // n_heads
"""
import math

import numpy as np


def layer_norm(x, eps=1e-5):
    """Normalise the last axis to mean 0 and variance 1 (population variance, no scale or bias)."""
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def gelu(u):
    """GELU, tanh approximation."""
    return 0.5 * u * (1 + np.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u * u * u)))


def softmax(s):
    """Softmax over the last axis; entries equal to -inf get weight 0."""
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def kv_bytes(layers, heads, head_dim, seq_len, batch=1, bytes_per_value=2):
    """Memory a KV cache needs, in bytes, as a Python int.

    Every layer stores one key vector and one value vector of head_dim numbers
    per head, per token and per request; each number takes bytes_per_value
    bytes (2 for fp16/bf16, 4 for float32, 8 for float64). With grouped-query
    attention, pass the number of key/value heads, not query heads.

    Example: kv_bytes(32, 32, 128, 1) == 524288.
    """
    raise NotImplementedError


class KVCache:
    """Keys and values of every token seen so far, for every layer.

    Attributes:
        k, v:    float64 arrays of shape (n_layers, n_heads, max_len, d_head),
                 allocated once, filled with zeros. Slots 0 .. length-1 hold
                 real tokens; the slots after them must stay zero.
        length:  int, number of filled slots. Starts at 0.
    """

    def __init__(self, n_layers, n_heads, max_len, d_head):
        """Reserve k and v at their full size now; they never grow or get replaced later."""
        raise NotImplementedError

    def append(self, layer, k_new, v_new):
        """Store the m new keys and values of one layer and return everything that layer has.

        k_new, v_new: (n_heads, m, d_head). With t = self.length, they go into
        slots t .. t+m-1 of layer `layer`.

        Returns (k, v), each (n_heads, t+m, d_head): slots 0 .. t+m-1 of that
        layer, as views into self.k and self.v (slicing, no copy).

        Does NOT change self.length: every layer of one forward call writes the
        same slots, and the model sets the new length once, after the last layer.

        Raises ValueError, with a message naming max_len, if t + m > max_len.
        """
        raise NotImplementedError


class TinyDecoder:
    """A decoder-only transformer with random weights (pre-LN blocks, learned positions).

    Attributes: vocab, d_model, n_heads, n_layers, d_head, max_len, the weight
    arrays built in __init__, and two int work counters:
        positions  += m                          per forward call
        scores     += n_layers * n_heads * m * (t + m)   per forward call
    Both start at 0; reset them by assigning 0 (model.positions = 0).
    """

    def __init__(self, vocab=96, d_model=128, n_heads=4, n_layers=4, max_len=256, seed=0):
        # Given: do not change. The weights must match the reference solution's.
        if d_model % n_heads:
            raise ValueError(f"d_model={d_model} is not a multiple of n_heads={n_heads}")
        self.vocab, self.d_model, self.n_heads, self.n_layers = vocab, d_model, n_heads, n_layers
        self.d_head, self.max_len = d_model // n_heads, max_len
        self.positions = 0
        self.scores = 0

        rng = np.random.default_rng(seed)
        d, L = d_model, n_layers
        self.tok_emb = rng.normal(0, 1, (vocab, d))  # (vocab, d)
        self.pos_emb = rng.normal(0, 1, (max_len, d))  # (max_len, d): row p is position p
        self.w_q = rng.normal(0, d**-0.5, (L, d, d))  # w_q[layer]: (d, d)
        self.w_k = rng.normal(0, d**-0.5, (L, d, d))
        self.w_v = rng.normal(0, d**-0.5, (L, d, d))
        self.w_o = rng.normal(0, d**-0.5, (L, d, d))
        self.w_up = rng.normal(0, d**-0.5, (L, d, 4 * d))  # MLP in: (d, 4d)
        self.w_down = rng.normal(0, (4 * d) ** -0.5, (L, 4 * d, d))  # MLP out: (4d, d)
        self.w_out = rng.normal(0, 2 * d**-0.5, (d, vocab))  # unembedding

    def new_cache(self):
        """An empty KVCache sized for this model: (n_layers, n_heads, max_len, d_head), length 0."""
        raise NotImplementedError

    def forward(self, ids, cache=None):
        """Logits for m new tokens, shape (m, vocab), float64.

        ids: m token ids (a list or 1-D int array). t = cache.length, or 0 if
        cache is None. The new tokens sit at positions t .. t+m-1.

        Steps:
          x = tok_emb[ids] + pos_emb[t : t+m]                       (m, d_model)
          causal mask (m, t+m): row i may see columns 0 .. t+i
          for each layer:
            a = layer_norm(x); q, k, v = a @ w_q, a @ w_k, a @ w_v, split into
            heads (h, m, hd) (head j is features j*hd .. (j+1)*hd - 1)
            with a cache: k, v = cache.append(layer, k, v)          (h, t+m, hd)
            scores = q @ k^T / sqrt(hd), masked, softmax            (h, m, t+m)
            x = x + merge_heads(weights @ v) @ w_o
            x = x + gelu(layer_norm(x) @ w_up) @ w_down
          logits = layer_norm(x) @ w_out
        With a cache, set cache.length = t + m once, after the last layer.
        Without a cache, attend over the m keys of this call only.

        Adds m to self.positions and n_layers * n_heads * m * (t+m) to self.scores.

        Raises ValueError, with a message naming max_len, if t + m > max_len;
        check this first, so a refused call changes nothing (cache, counters).
        """
        raise NotImplementedError


def generate_no_cache(model, prompt, n_new):
    """Greedy generation that runs the whole sequence through model.forward every step.

    Each of the n_new steps calls model.forward(all ids so far) (no cache),
    takes the last row of the logits, and appends its np.argmax.

    Returns (ids, step_logits): ids is a list of P + n_new Python ints (the
    prompt, then the generated tokens); step_logits is (n_new, vocab), row s
    being the logits the s-th token was chosen from. n_new = 0 calls forward
    zero times and returns the prompt and an empty (0, vocab) array.
    """
    raise NotImplementedError


def generate_with_cache(model, prompt, n_new):
    """Greedy generation with a KV cache: the same ids and logits as generate_no_cache.

    Makes a fresh cache with model.new_cache(), runs the whole prompt through
    forward once (prefill), then feeds only the newest token each step (decode).
    The last generated token is never fed, so at the end
    cache.length == P + n_new - 1 (for n_new >= 1; n_new = 0 calls forward
    zero times and returns an empty cache).

    Returns (ids, step_logits, cache) with ids and step_logits as in
    generate_no_cache.
    """
    raise NotImplementedError
