"""Stages 2 and 3 cases and checks: greedy generation from a small post-LN transformer.

Both stages get the same cases and must return the same ids. Every case's position table
has exactly P + max(M-1, 0) rows, so an extra forward pass or a shifted position reads past
its end. Random cases are kept only when every step's top two logits are far enough apart
that no summation order (or float32 arithmetic, in the float32 cases) can swap them; tie
cases make two ids' logits exactly zero, a tie that no arithmetic can break.
"""
from __future__ import annotations

import importlib.util
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from grader.cases.common import inputs_unchanged_check, returned_array, same_basics, same_value, tagged
from grader.messages import kind_text, token_difference
from grader.rules import packaged_layers
from grader.suite import Check, Mismatch, SourceCheck, Suite

ARGS = ["prompt", "w_emb", "pos_embed", "blocks_weights", "w_head", "num_heads", "max_new_tokens"]
MARGIN = {"float64": 1e-6, "float32": 2e-2}  # smallest allowed gap between the top two logits
WEIGHTS = 3  # the argument whose use the grader counts


@lru_cache(maxsize=None)
def _reference():
    """The stage 2 reference, used only when cases are built (never while grading)."""
    path = Path(__file__).resolve().parents[2] / "solutions" / "causal_lm_generate_no_cache.py"
    spec = importlib.util.spec_from_file_location("_reference_lm", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reference_forward():
    return _reference().forward


def _erf_gelu(u):
    return 0.5 * u * (1 + np.vectorize(math.erf)(u / math.sqrt(2)))


VARIANTS = {"erf_gelu": ("gelu", _erf_gelu)}  # a near-miss model: the reference with one function swapped


def _generate_with_margins(args):
    """Greedy ids in float64 and the smallest top-two gap met on the way."""
    prompt, w_emb, pos, blocks, w_head, heads, M = args
    forward = _reference_forward()
    ids = prompt.astype(np.int64)
    smallest = math.inf
    for _ in range(max(0, M)):
        row = forward(ids, *(a.astype(np.float64) for a in (w_emb, pos, blocks, w_head)), heads)[-1]
        top2 = np.sort(row)[-2:]
        smallest = min(smallest, top2[1] - top2[0])
        ids = np.append(ids, np.argmax(row))
    return ids, smallest


def _case(case_id, label, tags, args, seed):
    prompt, w_emb, pos, blocks, w_head, heads, M = args
    P, (V, D), L = len(prompt), w_emb.shape, blocks.shape[0]
    dtype = str(w_emb.dtype)
    facts = {"L0": L == 0, "nonpositive": M <= 0, "one": M == 1, "float32": dtype == "float32",
             "heads1": heads == 1, "headsD": heads == D, "work": L >= 1 and M >= 2}
    if any(facts[t] for t in ("L0", "nonpositive", "one", "float32")):
        tags = [t for t in tags if t != "tokens"]  # a specific check explains these cases
    tags = list(tags) + [t for t, hit in facts.items() if hit]
    return {"id": case_id, "label": f"{label}: P={P}, V={V}, D={D}, L={L}, heads={heads}, max_new_tokens={M}, {dtype}",
            "tags": tags, "args": list(args), "counted": WEIGHTS, "seed": seed,
            "P": P, "M": M, "L": L, "D": D, "V": V, "dtype": dtype}


def _weights(rng, P, V, D, L, M, scale, dtype):
    prompt = rng.integers(0, V, P).astype(dtype)  # ids arrive as floats
    w_emb = rng.normal(size=(V, D))
    pos = rng.normal(size=(P + max(M - 1, 0), D))
    blocks = rng.normal(size=(L, 6, D, D)) * scale / math.sqrt(D)
    w_head = rng.normal(size=(D, V))
    return prompt, *(a.astype(dtype) for a in (w_emb, pos, blocks)), w_head.astype(dtype)


def random_lm(seed, P, V, D, L, heads, M, dtype="float64", scale=1.0, tags=("tokens",), label="random model"):
    """Random weights; the seed moves on until every step has a safe margin."""
    for attempt in range(200):
        rng = np.random.default_rng(seed + 1009 * attempt)
        prompt, w_emb, pos, blocks, w_head = _weights(rng, P, V, D, L, M, scale, dtype)
        args = (prompt, w_emb, pos, blocks, w_head, heads, M)
        if _generate_with_margins(args)[1] >= MARGIN[dtype]:
            return _case(f"{label.replace(' ', '-')}-P{P}-D{D}-L{L}-H{heads}-M{M}-{dtype}-s{seed}", label, tags,
                         args, seed + 1009 * attempt)
    raise RuntimeError(f"no seed with a safe margin near {seed}")


def sensitive_lm(seed, P, V, D, L, heads, M, variant, scale=2.0):
    """A random model on which a near-miss variant of the model (one the catalogue knows, such as
    the exact erf GELU) changes at least one id, while the reference keeps a safe margin."""
    module, (name, replacement) = _reference(), VARIANTS[variant]
    for attempt in range(400):
        case = random_lm(seed + 7 * attempt, P, V, D, L, heads, M, scale=scale, label=f"sensitive to {variant}")
        original = getattr(module, name)
        setattr(module, name, replacement)
        try:
            varied = module.causal_lm_generate_no_cache(*case["args"])
        finally:
            setattr(module, name, original)
        if not np.array_equal(varied, _generate_with_margins(case["args"])[0]):
            return case
    raise RuntimeError(f"no case near seed {seed} tells {variant} apart")


def tied_lm(seed, P, V, D, L, heads, M, tie=(2, 5)):
    """Ids tie[0] and tie[1] get all-zero head columns (logit exactly 0); every other column
    points away from the final states, so its logit is clearly negative. The answer is tie[0]."""
    for attempt in range(200):
        rng = np.random.default_rng(seed + 1009 * attempt)
        prompt, w_emb, pos, blocks, _ = _weights(rng, P, V, D, L, M, 1.0, "float64")
        sequence = np.concatenate([prompt, np.full(max(M - 1, 0), tie[0])]).astype(np.int64)
        states = _reference_forward()(sequence, w_emb, pos, blocks, np.eye(D), heads)[P - 1:]  # (M, D)
        away = -states.mean(axis=0) / np.linalg.norm(states.mean(axis=0))
        w_head = away[:, None] * 2.0 + 0.2 * rng.normal(size=(D, V))
        w_head[:, list(tie)] = 0.0
        logits = states @ w_head
        others = np.delete(logits, list(tie), axis=1)
        if others.max() < -0.5:
            args = (prompt, w_emb, pos, blocks, w_head, heads, M)
            return _case(f"tie-P{P}-L{L}-M{M}-s{seed}", f"exact tie between ids {tie[0]} and {tie[1]}",
                         ["ties"], args, seed + 1009 * attempt)
    raise RuntimeError(f"no tie case near seed {seed}")


def build_cases() -> list[dict]:
    cases = [
        random_lm(1, 5, 11, 16, 2, 4, 12),
        random_lm(2, 7, 13, 16, 2, 4, 16),
        random_lm(3, 1, 7, 4, 1, 1, 6),
        random_lm(4, 9, 20, 12, 3, 3, 8),
        random_lm(5, 3, 13, 8, 2, 8, 10),
        random_lm(6, 2, 5, 6, 1, 2, 15),
        random_lm(7, 16, 17, 16, 2, 2, 40, scale=1.5, label="long generation"),
        random_lm(8, 12, 19, 8, 3, 4, 24, scale=2.0, label="large weights"),
        random_lm(9, 4, 9, 8, 0, 2, 7, tags=("tokens",), label="no blocks"),
        random_lm(10, 3, 6, 4, 0, 4, 1, label="no blocks"),
        random_lm(11, 6, 10, 8, 2, 2, 1, label="one new token"),
        random_lm(12, 4, 9, 8, 2, 2, 0, label="no new tokens"),
        random_lm(13, 4, 9, 8, 1, 2, -3, label="negative max_new_tokens"),
        random_lm(14, 5, 11, 16, 2, 4, 10, dtype="float32", label="float32 weights"),
        random_lm(15, 3, 8, 8, 0, 1, 5, dtype="float32", label="float32 weights"),
        sensitive_lm(100, 8, 13, 16, 2, 4, 30, "erf_gelu"),
        sensitive_lm(300, 6, 11, 16, 2, 2, 24, "erf_gelu"),
        tied_lm(20, 4, 9, 8, 0, 2, 1),
        tied_lm(21, 5, 9, 8, 2, 2, 1),
        tied_lm(22, 3, 9, 8, 2, 4, 4),
    ]
    return cases


# ---- checks -------------------------------------------------------------------------------

def _ids(observation) -> np.ndarray:
    """The returned ids as an array; a list of numbers is read too, so that only the check of
    the type fails when the values are right."""
    out = observation["output"]
    if out.get("kind") == "list" and all(item.get("kind") == "scalar" for item in out.get("items", [])):
        return np.array([item["value"] for item in out["items"]])
    return returned_array(out, "the result")


def _expected_ids(case) -> list[int]:
    return [int(t) for t in case["expected"]["output"]["array"]]


def integer_array(case, observation):
    out = observation["output"]
    if out.get("kind") != "array":
        return f"expected a 1-D numpy array of integer ids; received {kind_text(out)}"
    if not out.get("dtype", "").startswith(("int", "uint")):
        return (f"expected integer ids; received a {out.get('dtype')} array (the prompt arrives as floats: "
                f"convert with .astype(np.int64))")
    if len(out.get("shape", [])) != 1:
        return f"expected a 1-D array; received shape {tuple(out.get('shape'))}"
    return None


def length(case, observation):
    got, P, M = _ids(observation), case["P"], case["M"]
    want = P + max(0, M)
    if got.ndim != 1 or len(got) == want:
        return None
    if len(got) == max(0, M) and M > 0:
        return f"received {len(got)} ids, only the generated ones: return the prompt's {P} ids followed by them"
    if M <= 0:
        return f"max_new_tokens = {M} asks for no new ids, so return the {P} prompt ids; received {len(got)}"
    return f"expected {want} ids (the prompt's {P}, then {M} new); received {len(got)}"


def prompt_kept(case, observation):
    got, P = _ids(observation), case["P"]
    prompt = [int(t) for t in case["args"][0]]
    if got.ndim != 1 or [int(t) for t in got[:P]] != prompt:
        return f"the result must start with the prompt {prompt}; received {[int(t) for t in got[:P]]}"
    return None


def same_ids(why: str):
    def verify(case, observation):
        got = _ids(observation)
        if got.ndim != 1:
            raise Mismatch(f"expected a 1-D array; received shape {got.shape}")
        diff = token_difference(_expected_ids(case), [int(t) for t in got], case["P"])
        return f"{why}{diff}" if diff else None
    return verify


def cache_saves_work(case, observation):
    work = np.asarray(observation["work"], dtype=np.float64)  # (L, 6): rows through each matrix
    P, M, L = case["P"], case["M"], case["L"]
    cached = P + M - 1  # every token but the last goes through each block once
    recomputed = sum(P + s for s in range(M))
    keys, values = work[:, 1], work[:, 2]
    if not keys.any() and not values.any():
        return ("the grader saw no multiplication by any block's w_k or w_v. It counts the rows you multiply "
                "by the weight arrays you are given: index, slice, transpose or concatenate blocks_weights, but "
                "do not convert it with np.asarray or np.array, which hide it")
    for block in range(L):
        for name, rows in (("w_k", keys[block]), ("w_v", values[block])):
            if abs(rows - cached) > 1e-6:
                verdict = ("your cache saves nothing: the keys and values of the whole prefix are recomputed "
                           "at every step" if abs(rows - recomputed) < 1e-6
                           else "some tokens go through it more or fewer times than once")
                return (f"block {block} multiplied {rows:g} token rows by {name}; a cache needs exactly "
                        f"{cached} (each of the P + max_new_tokens - 1 = {cached} fed tokens once), "
                        f"recomputing everything needs {recomputed}: {verdict}")
    return None


CHECKS = [
    Check("integer_array", "returns a 1-D integer numpy array", integer_array),
    Check("length", "returns the prompt and max(0, max_new_tokens) new ids", length),
    Check("prompt_kept", "the result starts with the prompt's ids", prompt_kept),
    Check("tokens", "generated ids match the reference", same_ids(""), tagged("tokens")),
    Check("no_blocks", "works with no blocks (L = 0)", same_ids("with no blocks each id comes straight from "
                                                                 "the embeddings and w_head: "), tagged("L0")),
    Check("nonpositive", "max_new_tokens <= 0 returns the prompt", same_ids(""), tagged("nonpositive")),
    Check("one_token", "max_new_tokens = 1 takes one forward pass", same_ids(""), tagged("one")),
    Check("ties", "exact ties go to the smallest id", same_ids("two ids tie exactly here; the smaller must win: "),
          tagged("ties")),
    Check("float32", "float32 weights give the same ids", same_ids(""), tagged("float32")),
    Check("heads", "num_heads of 1 and of D", same_ids(""), tagged("heads1", "headsD")),
    inputs_unchanged_check(ARGS),
]
CACHE_CHECKS = [
    Check("cache_saves_work", "each token's keys and values are computed once", cache_saves_work, tagged("work")),
]


def built_by_hand(source: str):
    used = packaged_layers(source)
    if not used:
        return None
    where = "; ".join(f"line {line}: {what}" for line, what in used)
    return ("the statement asks you to build attention, layer norm, GELU and the cache yourself, without "
            f"packaged transformer layers or generation helpers (a softmax helper is fine). Found {where}")


RULES = [SourceCheck("built_by_hand", "no packaged transformer layers or generation helpers", built_by_hand)]


def same_behaviour(a, b):
    if not same_basics(a, b):
        return False
    if "error" in a:
        return True
    work_a, work_b = np.asarray(a.get("work", [])), np.asarray(b.get("work", []))
    same_work = work_a.shape == work_b.shape and np.allclose(work_a[..., 1:3], work_b[..., 1:3])
    return same_work and same_value(a["output"], b["output"])


SUITE = Suite(probe="counting", checks=CHECKS, same_behaviour=same_behaviour, build_cases=build_cases,
              stage_checks={"causal_lm_generate_with_kv_cache": CACHE_CHECKS}, source_checks=RULES)
