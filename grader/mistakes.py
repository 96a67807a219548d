"""The catalogue of known learner mistakes for stages 1-3.

Each entry names one realistic bug, says what it does and how to avoid it, and points
at the stage hint (1-based, as printed by `kata hint STAGE`) that helps most. Every
entry has a small implementation in tests/mistakes/<stage>__<slug>.py that is correct
except for that one bug; the test suite grades those files and expects each to fail.
"""
from __future__ import annotations

from dataclasses import dataclass

STEP = "kv_cache_step"
NO_CACHE = "causal_lm_generate_no_cache"
CACHED = "causal_lm_generate_with_kv_cache"
DECODER = "tiny_decoder"


@dataclass(frozen=True)
class Mistake:
    stage: str  # stage name, e.g. "kv_cache_step"
    slug: str  # unique within the stage; its implementation is tests/mistakes/<stage>__<slug>.py
    title: str  # one short line a learner understands
    explanation: str  # what the code does wrong, why it is wrong, how to avoid it
    hint: int  # 1-based number of the stage's hint that helps (kata hint STAGE)

    @property
    def implementation(self) -> str:
        """Path of the example implementation, relative to the repository root."""
        return f"tests/mistakes/{self.stage}__{self.slug}.py"


def _both(slug: str, title: str, explanation: str, hint_no_cache: int, hint_cached: int) -> tuple[Mistake, Mistake]:
    """One mistake that stages 2 and 3 share, told the same way in both."""
    return (Mistake(NO_CACHE, slug, title, explanation, hint_no_cache),
            Mistake(CACHED, slug, title, explanation, hint_cached))


_STEP = (
    Mistake(
        STEP, "triangular_mask", "A triangular mask on the single query row",
        "The causal mask of a prompt pass was applied to the one-row score matrix of a decode "
        "step. That row has local index 0, so np.triu(..., k=1) hides every key except the "
        "first, although the query really sits at position L and every cached key lies in its "
        "past. As soon as L > 0 the output collapses toward cached_V[0]; leave the (1, L+1) "
        "score row unmasked.",
        2,
    ),
    Mistake(
        STEP, "scale_by_length", "Scores divided by sqrt(L+1) instead of sqrt(D)",
        "The scores were divided by the square root of the number of keys, not of the feature "
        "width. The 1/sqrt(D) factor compensates for a dot product that sums D terms; it has "
        "nothing to do with the length of the cache, so here the softmax gets sharper or flatter "
        "as the cache grows. Take D from new_q.shape[-1].",
        2,
    ),
    Mistake(
        STEP, "scale_by_d", "Scores divided by D instead of sqrt(D)",
        "Dividing by D makes every score sqrt(D) times too small, which flattens the softmax "
        "toward a plain average of the values. The output still looks reasonable but is wrong "
        "whenever there are two or more keys. The scale of dot-product attention is math.sqrt(D).",
        2,
    ),
    Mistake(
        STEP, "no_scale", "Scores never divided by sqrt(D)",
        "The raw dot products went straight into the softmax. Their spread grows with the feature "
        "width, so without the 1/sqrt(D) factor the attention weights come out too peaked and the "
        "output differs from the expected one as soon as there are two keys. Divide the score row "
        "by math.sqrt(D) before the softmax.",
        2,
    ),
    Mistake(
        STEP, "skips_new_token", "The new token does not attend to itself",
        "The query was scored against the cached keys only and the weights applied to the cached "
        "values only, so the token being processed never sees its own key and value. With an "
        "empty cache nothing is left to attend to and numpy fails on an empty maximum. Build "
        "full_K and full_V first (cache, then the new row) and attend over all L+1 rows: correct "
        "returned caches do not make the output correct.",
        1,
    ),
    Mistake(
        STEP, "prepends_new", "New key and value put in front of the cache",
        "np.concatenate([new_k, cached_K]) puts the newest token first. The attention output "
        "happens to survive, since reordering keys and values together does not change it, but "
        "updated_K and updated_V are no longer in sequence order, so the history handed to every "
        "later step is scrambled. Keep the cached rows first and append the new row last.",
        1,
    ),
    Mistake(
        STEP, "unstable_softmax", "Softmax without subtracting the maximum",
        "np.exp(scores) overflows to inf once a score passes about 709 in float64 (about 88 in "
        "float32), and inf / inf is nan. Small random inputs hide the problem; large scores expose "
        "it. Subtract the row's maximum before exponentiating: the weights are mathematically the "
        "same and the largest exponent becomes exactly 1.",
        3,
    ),
    Mistake(
        STEP, "upcasts_float32", "float32 inputs give a float64 output",
        "np.sqrt(D) returns a float64 numpy scalar, and under NumPy 2's promotion rules a float32 "
        "array divided by it becomes float64. The numbers are right, but the result no longer has "
        "the inputs' dtype, which doubles its memory and surprises a float32 caller. Divide by "
        "math.sqrt(D), a Python float, which takes on the array's dtype.",
        4,
    ),
    Mistake(
        STEP, "keys_scaled_in_place", "The caller's cached_K scaled in place",
        "cached_K /= math.sqrt(D) writes into the array the caller passed in, so their cache "
        "silently changes, and the call fails outright when that array is read-only. In real "
        "decoding the same cache comes back at the next step and would be scaled again each time. "
        "Treat every input as read-only: scale a new array (cached_K / math.sqrt(D)) or, simpler, "
        "the score row.",
        1,
    ),
    Mistake(
        STEP, "drops_row_dim", "Output of shape (D,) instead of (1, D)",
        "Taking the single row of weights (weights[0] @ full_V) or squeezing the result drops the "
        "row axis. The numbers are right, but the output must keep the (1, D) shape of new_q so "
        "that it lines up with the other per-token arrays. A (1, L+1) weight row times the "
        "(L+1, D) values already gives (1, D).",
        4,
    ),
    Mistake(
        STEP, "crash_on_empty_cache", "The softmax maximum taken from the cached scores",
        "The maximum for the stable softmax came from new_q @ cached_K.T, the scores of the "
        "cached keys alone. For the very first token the cache is empty (L = 0), that array has "
        "no elements and .max() raises ValueError. Build the full (1, L+1) score row first and take "
        "its maximum: it always holds at least the new key's score.",
        3,
    ),
    Mistake(
        STEP, "query_appended_as_key", "The query added to the keys",
        "new_q was appended to the keys instead of new_k. Query and key are different projections "
        "of the token, so the score the token gives itself is wrong, and updated_K now holds a "
        "query row that every later step will compare against. Append new_k to the keys and new_v "
        "to the values; the query is used once and never stored.",
        1,
    ),
)

_LM = (
    Mistake(
        NO_CACHE, "no_causal_mask", "No causal mask in the forward pass",
        "Without the mask every position also attends to the tokens after it. The last position "
        "may see everything anyway, so with a single block its logits are unaffected; from the "
        "second block on, the keys and values it reads come from earlier positions that have "
        "looked at their future, and the tokens change. Set the scores above the diagonal to "
        "-inf before the softmax.",
        3,
    ),
    Mistake(
        CACHED, "no_causal_mask", "No causal mask in the prefill",
        "The prompt pass let each prompt position see the positions after it. Those states "
        "become the cached keys and values of the second and later blocks, so every decode step "
        "then reads a polluted cache (with a single block the last prompt position, and so the "
        "tokens, happen to be unaffected). Mask future keys with -inf in the prefill; only the "
        "one-row decode step may skip the mask.",
        1,
    ),
    Mistake(
        NO_CACHE, "first_row_logits", "Next token chosen from position 0's logits",
        "logits[0] is the model's prediction after the first token alone, not after the whole "
        "sequence, so every step ignores everything that came later. The next token is predicted "
        "by the last position: take logits[-1].",
        1,
    ),
    Mistake(
        CACHED, "first_row_logits", "First new token chosen from the prefill's first row",
        "The prefill gives one row of logits per prompt position, and row 0 predicts what follows "
        "the first prompt token only. The first new token is then chosen as if the prompt were one "
        "token long, and every decode step builds on that wrong token. Take the last row of the "
        "prefill logits.",
        1,
    ),
    *_both(
        "ties_to_largest", "Exact ties broken toward the largest id",
        "When vocabulary logits tie exactly, the smallest token id must win, which is what "
        "np.argmax already gives (the first maximum). Looking for the last maximum, or reversing "
        "the row, picks the largest id instead. Random logits almost never tie, so only inputs "
        "built to tie show it; np.argmax(row) is the whole fix.",
        5, 1,
    ),
    Mistake(
        NO_CACHE, "extra_forward", "One forward pass too many",
        "The loop recomputed the logits after appending every token, the last one included, "
        "although that prediction is never used. That pass needs pos_embed[P + M - 1], a row the "
        "table does not have to contain, so an exactly-sized table makes it crash, and otherwise a "
        "whole pass is wasted. Run the forward pass at the start of an iteration, only when "
        "another token is still needed.",
        1,
    ),
    Mistake(
        CACHED, "extra_forward", "The last generated token fed back",
        "After choosing the last token the loop still ran it through the blocks, appending its "
        "keys and values and reading pos_embed[P + M - 1], a row the table does not have to "
        "contain. On an exactly-sized table that raises; on a longer one the tokens are right but "
        "one extra row is projected per block. Stop as soon as M tokens are chosen: only the first "
        "M - 1 generated tokens are ever fed back.",
        2,
    ),
    *_both(
        "nonpositive_returns_empty", "No requested tokens gives an empty array",
        "For max_new_tokens <= 0 the function returned an empty array. The result is always the "
        "prompt followed by the new tokens, so with none requested it is the prompt itself, as "
        "integer ids. Clamp the count with max(0, max_new_tokens) and return "
        "np.asarray(prompt).astype(np.int64).",
        1, 1,
    ),
    *_both(
        "crash_without_blocks", "Crash on a model with no blocks",
        "The model width was read from blocks_weights[0], which does not exist when there are "
        "zero blocks, so L = 0 raises IndexError. A model without blocks is valid: its logits come "
        "straight from the token-plus-position embedding through w_head. Take D and the dtype from "
        "w_emb, which is always there.",
        1, 1,
    ),
    *_both(
        "pre_ln", "Pre-LN blocks instead of post-LN",
        "The blocks normalised the input of each branch and added the branch to the unnormalised "
        "stream, x + attn(LN(x)), the layout of many recent models but not of this one. Here the "
        "normalisation follows each residual sum: y = LN(x + attn(x)), then x = LN(y + MLP(y)). "
        "The two layouts compute different functions, so the tokens differ whenever there is a "
        "block.",
        4, 1,
    ),
    *_both(
        "erf_gelu", "Exact erf GELU instead of the tanh form",
        "The exact GELU, 0.5 * u * (1 + erf(u / sqrt(2))), and the tanh approximation asked for "
        "here differ by less than 0.0005, so random tests rarely expose the swap, but a close call "
        "between two logits flips the chosen token. A model must run with the activation it was "
        "built with: 0.5 * u * (1 + tanh(sqrt(2 / pi) * (u + 0.044715 * u**3))).",
        4, 1,
    ),
    *_both(
        "heads_without_transpose", "Heads split without the transpose",
        "Reshaping the (T, D) projection straight to (H, T, hd) cuts the memory in the wrong "
        "order, so each head mixes features of different tokens. The right split is "
        "reshape(T, H, hd) then transpose(1, 0, 2), giving head h the features h*hd to "
        "(h+1)*hd - 1 of every token, and the merge must undo exactly that. With one token or one "
        "head both give the same result, which is why short checks miss it.",
        2, 4,
    ),
    *_both(
        "scale_by_sqrt_d", "Scores scaled by sqrt(D) instead of sqrt(D / num_heads)",
        "Each head's dot product sums hd = D / num_heads terms, so its scale is sqrt(hd). Dividing "
        "by sqrt(D) makes the scores sqrt(num_heads) times too small and flattens every head's "
        "attention. The two agree only with a single head; use math.sqrt(D // num_heads).",
        2, 1,
    ),
    *_both(
        "tied_head", "Logits from w_emb.T instead of w_head",
        "Some models reuse the embedding table as their output projection, but this one comes "
        "with its own w_head, and x @ w_emb.T gives different logits. Project the final states "
        "with w_head.",
        4, 1,
    ),
    *_both(
        "early_stop", "Generation stops at token 0",
        "The loop treated id 0 as an end-of-sequence marker and stopped once it was generated. "
        "This model has no special tokens: 0 is an ordinary id, and exactly max_new_tokens new ids "
        "are always expected. Run the loop a fixed number of times.",
        5, 1,
    ),
    *_both(
        "float_output", "Token ids returned as floats",
        "The prompt arrives as floats, and joining the new ids onto it keeps the float dtype. "
        "Token ids are integers: convert the prompt with .astype(np.int64) first and return an "
        "int64 array.",
        5, 1,
    ),
    *_both(
        "list_output", "Token ids returned as a Python list",
        "The ids are right but come back as a list. The result is a one-dimensional numpy array of "
        "integers, the type the rest of a pipeline indexes and compares; build the list if you like, "
        "then return np.array(ids, dtype=np.int64).",
        5, 1,
    ),
    *_both(
        "generated_only", "Only the new tokens returned",
        "The result is the whole sequence, the prompt followed by the generated ids, P + M long. "
        "Returning only the continuation drops the prompt; start the output from the prompt's ids "
        "and append to it.",
        5, 1,
    ),
    *_both(
        "weights_scaled_in_place", "Score scale folded into w_q in place",
        "w_q *= 1 / sqrt(hd) writes through a view into the caller's blocks_weights. Their model "
        "changes, a read-only array raises, and since the fold runs on every pass the queries are "
        "scaled again and again, so later tokens drift. Scale the scores (or a new array, "
        "w_q / sqrt(hd)) and never assign into an input.",
        2, 5,
    ),
)

_CACHED_ONLY = (
    Mistake(
        CACHED, "position_off_by_one", "Decode positions shifted by one",
        "The first generated token was fed with pos_embed[P + 1] instead of pos_embed[P]: its "
        "position was taken as the sequence length after appending it, not as its index. Every "
        "decode step then carries the next position's embedding, the tokens drift away from the "
        "uncached run, and the last step reads past the end of an exactly-sized table. The prompt "
        "fills positions 0 .. P-1, so generated token k (counting from 0) sits at P + k.",
        2,
    ),
    Mistake(
        CACHED, "position_restart", "Decode positions restart at 0",
        "The decode loop counted positions from 0 again, so the first generated token got "
        "pos_embed[0], the place of the first prompt token. The cache already holds positions "
        "0 .. P-1 and the new token comes after them, at P. Use each token's index in the whole "
        "sequence, not the number of decode steps.",
        2,
    ),
    Mistake(
        CACHED, "shared_cache", "One cache shared by every block",
        "All blocks wrote into and read from the same keys and values; [entry] * n_blocks repeats "
        "one object rather than making copies. Each block computes its keys and values from "
        "different hidden states, so a block reading another block's entries attends to the wrong "
        "things: invisible with one block, wrong tokens with two or more. Create fresh arrays for "
        "every block, for instance in a list comprehension.",
        4,
    ),
    Mistake(
        CACHED, "appends_twice", "The decoded token appended twice",
        "Each decode step stored the new token's keys and values in the block's cache twice. "
        "Attention then counts that token double, and the duplicates stay in the cache for every "
        "later step, so the tokens drift from the uncached run. Each token's keys and values go "
        "into each block's cache exactly once, in the step that processes it.",
        4,
    ),
    Mistake(
        CACHED, "recomputes_prefix", "The cache rebuilt from the whole sequence every step",
        "Every decode step ran the whole sequence through the blocks again and overwrote the "
        "cache with the result. The tokens are right, but the work per step grows with the "
        "sequence instead of staying at one token, which is precisely the cost a KV cache removes; "
        "the grader sees it in the number of rows multiplied by w_k and w_v. After the prefill, "
        "feed only the newest token and append its keys and values.",
        4,
    ),
    Mistake(
        CACHED, "masked_decode_row", "A triangular mask on the decode row",
        "The mask for the single decode query was built with np.triu as if that query were row 0 "
        "of a square score matrix, so it sees only the first cached key. The query is really the "
        "newest position and everything in the cache lies in its past. Mask only in the prefill, "
        "or build the mask from absolute positions; the one-row decode step needs none.",
        3,
    ),
)

_DECODER = (
    Mistake(
        DECODER, "length_in_layer_loop", "The cache length moves once per layer",
        "KVCache.append advanced cache.length after writing, and append runs once in every layer "
        "of the same forward. The second layer therefore writes its keys and values m slots too far "
        "and attends over slots holding zeros or leftovers where its own new tokens should be, so "
        "the logits go wrong from the prefill on. append only writes and returns views; set cache.length = t + m "
        "once, after the last layer.",
        6,
    ),
    Mistake(
        DECODER, "square_mask", "The causal mask is the (m, m) triangle of the new tokens",
        "The mask was built for the m new tokens alone and widened to t + m columns with visible "
        "columns in the wrong place. With t = 0 (prefill) it is the usual triangle and with m = 1 "
        "(decode) nothing needs hiding, so generation works; a second chunk on a non-empty cache "
        "then hides cached tokens and shows future ones. Row i is position t + i and may see "
        "columns 0 .. t + i: shift the diagonal by t.",
        4,
    ),
    Mistake(
        DECODER, "decode_position_zero", "Decode steps take position 0",
        "The position rows were taken as pos_emb[0 : m] in every call, so each decoded token was "
        "embedded as if it were the first token of the sequence. The code runs and the logits look "
        "confident, but they are not the uncached path's. A new token's position is the number of "
        "tokens already cached: add pos_emb[t : t + m].",
        3,
    ),
    Mistake(
        DECODER, "concat_cache", "The cache grows by concatenation",
        "KVCache started with no slots and np.concatenate made bigger arrays whenever tokens "
        "arrived. The numbers come out right, but every growth copies the whole cache, so decoding "
        "n tokens copies O(n^2) values and the arrays reserved at the start are not the ones in "
        "use. Allocate (n_layers, n_heads, max_len, d_head) once with np.zeros and write slices.",
        2,
    ),
    Mistake(
        DECODER, "kv_bytes_no_factor_two", "kv_bytes counts keys but not values",
        "The memory formula multiplied layers, heads, head size, tokens, batch and bytes per "
        "value, and stopped there. A KV cache stores a key vector and a value vector for every "
        "one of those, so the real size is twice that: 524,288 bytes per token for 32 layers, 32 "
        "heads and head size 128 in fp16, not 262,144.",
        1,
    ),
    Mistake(
        DECODER, "scores_forget_heads", "The scores counter forgets the heads",
        "model.scores grew by n_layers * m * (t + m) per forward: one score matrix per layer. "
        "Every head computes its own (m, t + m) matrix, so the count is n_heads times too small "
        "and the saving it proves is about the wrong model. Add n_layers * n_heads * m * (t + m).",
        6,
    ),
    Mistake(
        DECODER, "scores_wrong_t", "The scores counter ignores the cached keys",
        "model.scores counted m * m scores per head and layer, the new tokens against each other "
        "only. Each new query is scored against every key the layer holds, the t cached ones and "
        "the m new ones, so a decode step costs t + 1 scores per head, not 1. The uncached path "
        "(t = 0) still agrees, which is why the cached count is the one that differs.",
        6,
    ),
    Mistake(
        DECODER, "no_max_len_guard", "Tokens past max_len are dropped silently",
        "When a call did not fit, forward kept the tokens that fit and returned fewer rows than it "
        "was given, with no error. The caller cannot tell its input was cut, and the cache cannot "
        "hold what it claims to. Check t + m against max_len first, before writing or counting, "
        "and raise a ValueError that names max_len.",
        3,
    ),
    Mistake(
        DECODER, "reused_cache", "A kept cache is reused for a different prompt",
        "The model held on to its cache after a generation and, given a new prompt, treated the "
        "cached tokens as that prompt's beginning without comparing them. Every key and value "
        "after the first differing token depends on it, so the new prompt attends to the old one. "
        "Start each generation from model.new_cache(), or reuse a cache only for an exact "
        "token-for-token prefix.",
        6,
    ),
)

CATALOGUE: tuple[Mistake, ...] = _STEP + _LM + _CACHED_ONLY + _DECODER


def for_stage(stage: str) -> tuple[Mistake, ...]:
    """The mistakes of one stage, in catalogue order."""
    return tuple(m for m in CATALOGUE if m.stage == stage)


def find(stage: str, slug: str) -> Mistake:
    for m in CATALOGUE:
        if m.stage == stage and m.slug == slug:
            return m
    raise KeyError(f"{stage}__{slug}")
