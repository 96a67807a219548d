"""The one ordered registry of stages. Every command reads it; nothing else lists stages.

Adding a stage means adding one entry here, its stub in exercises/, its reference
in solutions/, its instructions beside the stub and its cases in grader/cases/.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    number: int
    name: str  # file stem in every target, and the main function's name
    title: str
    cases: str  # module in grader/cases/ that builds the inputs and runs them
    hints: tuple[str, ...]
    points: int = 25
    notebook: str = ""  # the notebook section to read after the last hint
    api: tuple[str, ...] = ()  # names the grader calls; stub and reference must agree on them (default: name)

    @property
    def file(self) -> str:
        return f"{self.name}.py"

    @property
    def instructions(self) -> str:
        return f"{self.name}.md"

    @property
    def graded_api(self) -> tuple[str, ...]:
        return self.api or (self.name,)


STAGES: tuple[Stage, ...] = (
    Stage(
        number=1,
        name="kv_cache_step",
        title="One attention step with a KV cache",
        cases="kv_cache_step",
        hints=(
            "Build the full key and value matrices first: the cached rows, then the new row "
            "(np.concatenate along axis 0). Both have L+1 rows, and the new token's own key is "
            "the last one. Never write into cached_K or cached_V: return new arrays.",
            "The score row is new_q @ full_K.T, shape (1, L+1), divided by sqrt(D) where D is "
            "the feature width (not the number of keys). No mask: every cached key lies in the "
            "past of the new query, so all L+1 of them are visible.",
            "A stable softmax subtracts the row's maximum before np.exp, so the largest "
            "exponent is exp(0) = 1 and nothing overflows however large the scores are.",
            "Keep the shapes and the dtype: the output is weights @ full_V with shape (1, D). "
            "np.sqrt(D) is a float64 numpy scalar that turns float32 arrays into float64; "
            "divide by math.sqrt(D), a plain Python float, instead.",
        ),
        notebook="notebooks/prefill_vs_decode.ipynb, section 'A decode step is one row'",
    ),
    Stage(
        number=2,
        name="causal_lm_generate_no_cache",
        title="Greedy generation, recomputing everything",
        cases="causal_lm",
        hints=(
            "Write forward(ids) first: it returns the logits of every position, shape (T, V). "
            "Generation is then a loop: run forward on the whole sequence, take the last row, "
            "append its argmax. max_new_tokens <= 0 runs the loop zero times and returns the "
            "prompt as integers (np.asarray(prompt).astype(np.int64)).",
            "Inside a block, project x (T, D) to q, k, v, then reshape to (T, H, hd) and "
            "transpose to (H, T, hd): each head is a run of hd consecutive features. Scale the "
            "scores by sqrt(hd) = sqrt(D / num_heads), not sqrt(D).",
            "The prompt pass is causal: position i may only see keys 0 .. i. Set the scores "
            "above the diagonal to -inf before the softmax (np.triu(..., k=1) gives that mask).",
            "The block is post-LN: y = LN(x + attn), then x = LN(y + GELU(y @ w_mlp1) @ w_mlp2). "
            "LN has no scale or bias and uses the population variance with eps = 1e-5; GELU is "
            "the tanh form. The logits use w_head, never w_emb.T.",
            "np.argmax returns the first maximum, which is the smallest id on an exact tie. "
            "Return the prompt followed by exactly max(0, max_new_tokens) ids as a 1-D integer "
            "array, without stopping early on any token.",
        ),
        notebook="notebooks/prefill_vs_decode.ipynb, section 'Generation without a cache'",
    ),
    Stage(
        number=3,
        name="causal_lm_generate_with_kv_cache",
        title="Greedy generation with a per-block KV cache",
        cases="causal_lm",
        hints=(
            "It is stage 2's model and stage 2's rules (the tanh GELU, post-LN, sqrt(D / num_heads), "
            "w_head, ties to the smallest id, L = 0, max_new_tokens <= 0): get stage 2 passing first. "
            "Then split the work in two: a prefill that runs all P prompt tokens through the blocks "
            "once, with a causal mask, and a decode loop that feeds one token at a time. Only "
            "the keys and values need to be kept between steps, one pair of arrays per block.",
            "Positions: the prompt uses rows 0 .. P-1 of pos_embed. The first generated token is "
            "fed at position P, the next at P+1, and so on. The last generated token is never fed "
            "back, so the cache ends with P + max_new_tokens - 1 positions.",
            "In a decode step, compute q, k, v for the single new token only, put k and v at the "
            "end of this block's cache, and attend over the whole cache. That one query row "
            "needs no mask: everything in the cache is in its past.",
            "Each block has its own cache, and each token goes into it exactly once. Reserve the "
            "arrays up front, shape (num_heads, P + max_new_tokens - 1, D // num_heads) per "
            "block, and write into slices: no recomputation of earlier tokens.",
            "The grader counts the rows you multiply by every block's w_k and w_v. Use the weight "
            "arrays as you receive them (slicing and indexing are fine; np.asarray or np.array "
            "copies hide the work), and the count should be exactly P + max_new_tokens - 1 per "
            "block.",
        ),
        notebook="notebooks/prefill_vs_decode.ipynb, section 'Generation with a cache'",
    ),
    Stage(
        number=4,
        name="tiny_decoder",
        title="A preallocated KV cache and one forward for every mode",
        cases="tiny_decoder",
        hints=(
            "kv_bytes is one line: a cache holds a key AND a value vector of head_dim numbers per layer, "
            "head, token and request, so 2 * layers * heads * head_dim * seq_len * batch * bytes_per_value. "
            "With grouped-query attention, heads means the key/value heads.",
            'Start with the plumbing, not the model. KVCache.__init__ reserves k and v at full size with np.zeros, shape (n_layers, n_heads, max_len, d_head), and sets length to 0. append writes slots length .. length+m-1 of one layer and returns the slices [:length+m] of that layer: views, no copy, and no change to length.',
            'In forward, read t = cache.length (0 without a cache) and m = len(ids) before anything else. If t + m > max_len, raise ValueError now, before writing or counting. The new tokens sit at positions t .. t+m-1, so x = tok_emb[ids] + pos_emb[t : t+m]; a decode step that adds row 0 runs fine and gives wrong logits.',
            'The mask has shape (m, t+m): new token i is position t+i and may see columns 0 .. t+i. Compare np.arange(t + m) with t + np.arange(m)[:, None] and set the scores of the later columns to -inf. An (m, m) triangle passes prefill and single-token decode but breaks a chunk of several tokens on a non-empty cache.',
            'Each layer is pre-LN: a = layer_norm(x), project a with w_q, w_k, w_v and reshape (m, d_model) to (m, h, hd), then transpose to (h, m, hd). With a cache, k, v = cache.append(layer, k, v) gives (h, t+m, hd); without one, use the m new keys as they are. Then x += merged_heads @ w_o and x += gelu(layer_norm(x) @ w_up) @ w_down; the logits are layer_norm(x) @ w_out.',
            'After the layer loop, and only there: cache.length = t + m, positions += m, scores += n_layers * n_heads * m * (t + m). generate_with_cache feeds the prompt once, then [ids[-1]] each step, reading logits[-1] and appending int(np.argmax(...)); the last token is never fed, so the cache ends at P + n_new - 1.',
        ),
        notebook="notebooks/prefill_vs_decode.ipynb, section 'Chunked prefill'",
        api=("kv_bytes", "KVCache", "KVCache.__init__", "KVCache.append", "TinyDecoder", "TinyDecoder.__init__",
             "TinyDecoder.new_cache", "TinyDecoder.forward", "generate_no_cache", "generate_with_cache"),
    ),
)


def by_name(name: str) -> Stage:
    """A stage by its name, or by its number ("2")."""
    for stage in STAGES:
        if name in (stage.name, str(stage.number)):
            return stage
    raise KeyError(name)
