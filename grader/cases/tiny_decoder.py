"""Stage 4 cases and checks: a preallocated KV cache and one forward for every mode.

Each case is a scenario (grader/sandbox/scenarios.py) run against the learner's module.
The checks compare the two generation paths with each other, the counters with their
formulas, and everything with the reference's results for the same seeds.
"""
from __future__ import annotations

import numpy as np

from grader.cases.common import returned_array, same_value, tagged
from grader.messages import array_difference, fmt, kind_text, token_difference
from grader.suite import Check, Mismatch, Suite

SMALL = {"vocab": 96, "d_model": 32, "n_heads": 4, "n_layers": 2, "max_len": 256, "seed": 1}
LONG = {"vocab": 96, "d_model": 16, "n_heads": 2, "n_layers": 1, "max_len": 256, "seed": 1}  # the long run is all attention: keep it lean
DEFAULT = {"vocab": 96, "d_model": 128, "n_heads": 4, "n_layers": 4, "max_len": 256, "seed": 0}
EXACT = 1e-9  # the two paths group the same sums differently: they agree to ~1e-14
REFERENCE = 1e-6  # against the reference model, which may multiply in another order
KV_BYTES_CALLS = [
    ((32, 32, 128, 1), {}),  # a 7B-class model in fp16: 524,288 bytes per token
    ((4, 4, 32, 1), {"bytes_per_value": 8}),  # the toy model in float64
    ((32, 8, 128, 4096), {}),  # grouped-query attention: 8 key/value heads
    ((2, 3, 4, 5), {"batch": 2, "bytes_per_value": 1}),
    ((32, 32, 128, 4000), {"bytes_per_value": 1}),  # fp8
]


def _ids(n, seed, vocab=96):
    return [int(i) for i in np.random.default_rng(seed).integers(0, vocab, n)]


def scenario(name, label, params, tags=()):
    return {"id": f"{name}-{label.replace(' ', '-')}", "label": label, "tags": [name, *tags],
            "scenario": name, "params": params, "args": []}


def build_cases() -> list[dict]:
    small_head = dict(SMALL, d_head=SMALL["d_model"] // SMALL["n_heads"])
    return [
        scenario("generation", "48-token prompt, 160 new tokens, small model",
                 {"config": LONG, "prompt": _ids(48, 1), "n_new": 160}, ["long"]),
        scenario("generation", "default model, 8-token prompt, 6 new tokens",
                 {"config": DEFAULT, "prompt": _ids(8, 2), "n_new": 6}),
        scenario("generation", "one new token", {"config": SMALL, "prompt": _ids(5, 3), "n_new": 1}),
        scenario("prefill_paths", "48-token prompt as 1 pass, 30 + 18, and 48 single tokens",
                 {"config": SMALL, "prompt": _ids(48, 4), "split": 30}),
        scenario("causality", "48 tokens, then 20 more", {"config": SMALL, "sequence": _ids(68, 5), "prefix": 48}),
        scenario("append_contract", "append on layers 0 and 1, then one more token",
                 {"config": dict(small_head, max_len=16), "calls": [[0, 3, False], [1, 3, True], [0, 2, False],
                                                                     [1, 2, True]]}),
        scenario("max_len_guard", "max_len = 16",
                 {"config": dict(SMALL, max_len=16), "prompt": _ids(10, 6), "more": _ids(7, 7),
                  "too_long": _ids(17, 8), "n_new": 8}),
        scenario("kv_bytes", "known sizes", {"calls": [[list(a), k] for a, k in KV_BYTES_CALLS]}),
        scenario("fresh_cache", "two prompts on one model",
                 {"config": SMALL, "first": _ids(12, 9), "second": _ids(9, 10), "n_new": 6}),
    ]


# ---- reading what came back -----------------------------------------------------------------

def _out(observation) -> dict:
    out = observation["output"]
    if not isinstance(out, dict):
        raise Mismatch("the scenario returned nothing the grader can read")
    return out


def _want(case) -> dict:
    return case["expected"]["output"]


def _integer(value: dict, what: str) -> int:
    if value.get("kind") != "scalar" or not str(value.get("dtype", "")).startswith(("int", "uint")):
        raise Mismatch(f"{what} should be an integer; it is {kind_text(value)}")
    return int(value["value"])


def _token_list(value: dict, what: str) -> list[int]:
    if value.get("kind") == "list":
        return [int(v.get("value", -1)) for v in value["items"]]
    return [int(t) for t in returned_array(value, what)]


def _formulas(case) -> dict:
    """The counters' values after each path, from the statement's formulas."""
    p = case["params"]
    P, N = len(p["prompt"]), p["n_new"]
    L, h = p["config"]["n_layers"], p["config"]["n_heads"]
    return {
        ("no_cache", "positions"): sum(P + i for i in range(N)),
        ("with_cache", "positions"): P + N - 1,
        ("no_cache", "scores"): L * h * sum((P + i) ** 2 for i in range(N)),
        ("with_cache", "scores"): L * h * (P * P + sum(P + i for i in range(1, N))),
    }


# ---- checks -----------------------------------------------------------------------------------

def same_ids_both_paths(case, observation):
    out, p = _out(observation), case["params"]
    a = _token_list(out["no_cache"]["ids"], "generate_no_cache's ids")
    b = _token_list(out["with_cache"]["ids"], "generate_with_cache's ids")
    want = _token_list(_want(case)["no_cache"]["ids"], "")
    diff = token_difference(want, a, len(p["prompt"]))
    if diff:
        return f"generate_no_cache: {diff}"
    diff = token_difference(a, b, len(p["prompt"]))
    return f"generate_with_cache differs from generate_no_cache: {diff}" if diff else None


def logits_agree(case, observation):
    out = _out(observation)
    a = returned_array(out["no_cache"]["logits"], "generate_no_cache's step logits")
    b = returned_array(out["with_cache"]["logits"], "generate_with_cache's step logits")
    want = _want(case)["no_cache"]["logits"]["array"]
    if a.shape != want.shape or b.shape != want.shape:
        return f"step logits should be (n_new, vocab) = {want.shape}; received {a.shape} and {b.shape}"
    diff = array_difference(want, a, 0.0, REFERENCE)
    if diff:
        return f"generate_no_cache's logits differ from the reference model's: {diff}"
    diff = array_difference(a, b, 0.0, EXACT)
    if diff:
        step = int(np.argmax(np.abs(a - b).max(axis=1) > EXACT))
        return f"the cached path's logits part from the uncached ones at step {step} (limit {EXACT:g}): {diff}"
    if a.std() < 0.1:
        return f"the logits barely vary (std {fmt(a.std())}); the test means nothing on near-zero logits"
    return None


def counter(name):
    def verify(case, observation):
        out, formulas = _out(observation), _formulas(case)
        for path in ("no_cache", "with_cache"):
            got = _integer(out[path][name], f"model.{name} after {path.replace('_', ' ')}")
            want = formulas[(path, name)]
            if got != want:
                hint = {"positions": "add m, the tokens of this call, once per forward",
                        "scores": "add n_layers * n_heads * m * (t + m) once per forward"}[name]
                return (f"after generate_{path} ({len(case['params']['prompt'])}-token prompt, "
                        f"{case['params']['n_new']} new), model.{name} is {got}; the formula gives {want} ({hint})")
        return None
    return verify


def _cache(case, observation):
    return _out(observation)["with_cache"]["cache"]


def cache_layout(case, observation):
    cache, c = _cache(case, observation), case["params"]["config"]
    shape = (c["n_layers"], c["n_heads"], c["max_len"], c["d_model"] // c["n_heads"])
    for name in ("k", "v"):
        value = cache[name]
        if value.get("kind") != "array":
            return f"cache.{name} should be a numpy array; it is {kind_text(value)}"
        if tuple(value["shape"]) != shape or value["dtype"] != "float64":
            return (f"cache.{name} should be float64 of shape {shape} (n_layers, n_heads, max_len, d_head), "
                    f"reserved in full; it is {value['dtype']} of shape {tuple(value['shape'])}")
    return None


def cache_contents(case, observation):
    cache, want, p = _cache(case, observation), _want(case)["with_cache"]["cache"], case["params"]
    expected_length = len(p["prompt"]) + p["n_new"] - 1
    length = _integer(cache["length"], "cache.length")
    if length != expected_length:
        return (f"cache.length is {length}; after a {len(p['prompt'])}-token prompt and {p['n_new']} new tokens it "
                f"should be {expected_length} (the last token is never fed back)")
    for name in ("k", "v"):
        if f"{name}_filled" not in cache:
            raise Mismatch(f"cache.{name} could not be read")
        if cache[f"{name}_tail_max"] != 0.0:
            return f"slots of cache.{name} past length {length} should still be zero; the largest is " \
                   f"{fmt(cache[f'{name}_tail_max'])}"
        diff = array_difference(want[f"{name}_filled"], cache[f"{name}_filled"], 0.0, REFERENCE)
        if diff:
            return f"the filled part of cache.{name} differs from the reference's: {diff}"
        got_bytes = cache[f"{name}_filled"].size * 8
        c = p["config"]
        formula = c["n_layers"] * c["n_heads"] * (c["d_model"] // c["n_heads"]) * length * 8
        if got_bytes != formula:
            return f"the filled part of cache.{name} holds {got_bytes} bytes; kv_bytes says {formula} per array"
    return None


def one_buffer(case, observation):
    out = _out(observation)
    moved = [path for path in ("one_pass", "chunks", "token_by_token") if out[path].get("same_buffers") is not True]
    if moved:
        return (f"cache.k or cache.v is a different array after the {', '.join(moved)} prefill: append must write "
                f"into the arrays reserved by KVCache.__init__ (slices), not replace or concatenate them")
    return None


def prefills_agree(case, observation):
    out, want = _out(observation), _want(case)
    reference_last = want["one_pass"]["last"]["array"]
    for path, words in (("one_pass", "one pass"), ("chunks", "two chunks (30 + 18, the second on a non-empty cache)"),
                        ("token_by_token", "one token at a time"), ("full_pass", "a full pass without a cache")):
        last = returned_array(out[path]["last"], f"the last logits after {words}")
        diff = array_difference(reference_last, last, 0.0, REFERENCE)
        if diff:
            mask = " An (m, m) mask is right for prefill and decode but not for a chunk: build it (m, t + m)." \
                if path == "chunks" else ""
            return f"the prompt's last logits after {words} differ from the reference's: {diff}.{mask}"
        if path != "full_pass":
            for name in ("k", "v"):
                got = out[path]["cache"].get(f"{name}_filled")
                if got is None:
                    raise Mismatch(f"cache.{name} after {words} could not be read")
                diff = array_difference(want["one_pass"]["cache"][f"{name}_filled"], got, 0.0, REFERENCE)
                if diff:
                    return f"cache.{name} after {words} differs from a one-pass prefill: {diff}"
    return None


def prefix_unchanged(case, observation):
    out = _out(observation)
    for name in ("k", "v"):
        diff = array_difference(out["before"][name], out["after"][name], 0.0, 1e-12)
        if diff:
            return f"feeding 20 more tokens changed the cached {name} of the first 48: {diff}"
    return None


def append_contract(case, observation):
    out, c = _out(observation), case["params"]["config"]
    t = 0
    for i, ((layer, m, commit), call) in enumerate(zip(case["params"]["calls"], out["calls"])):
        for name in ("k", "v"):
            got = returned_array(call[name], f"the {name} returned by append")
            if got.shape != (c["n_heads"], t + m, c["d_head"]):
                return (f"call {i + 1}: append(layer={layer}, m={m}) with length {t} returned {name} of shape "
                        f"{got.shape}; expected (n_heads, t + m, d_head) = {(c['n_heads'], t + m, c['d_head'])}")
            diff = array_difference(call[f"{name}_new"], got[:, t:], 0.0, 0.0)
            if diff:
                return f"call {i + 1}: the last {m} rows returned for {name} are not the ones just appended: {diff}"
        if _integer(call["length_after"], "cache.length") != t:
            return (f"call {i + 1}: append changed cache.length from {t} to {call['length_after'].get('value')}; "
                    f"the model advances it once per forward, after the last layer")
        t += m if commit else 0
    if out.get("same_buffers") is not True:
        return "append replaced cache.k or cache.v; it should write into the reserved arrays"
    return None


def max_len_guard(case, observation):
    out, limit = _out(observation), case["params"]["config"]["max_len"]
    for name, words in (("forward_with_cache", "forward of 7 tokens on a cache holding 10"),
                        ("forward_without_cache", "forward of 17 tokens without a cache"),
                        ("generate_with_cache", "generate_with_cache of 10 + 8 tokens")):
        raised = out[name]["raised"]
        if raised is None:
            return f"with max_len = {limit}, {words} returned instead of raising: refuse it with a ValueError"
        if "max_len" not in raised["message"] and str(limit) not in raised["message"]:
            return (f"with max_len = {limit}, {words} raised {raised['type']}: {raised['message']!r}; a clear error "
                    f"names max_len (check t + m against it first, before anything is written)")
        if name == "forward_with_cache" and not out[name]["length_kept"]:
            return "the refused forward changed cache.length: check the limit before writing anything"
    return None


def kv_bytes_values(case, observation):
    got = _out(observation)["values"]
    want = _want(case)["values"]
    for (args, kwargs), g, w in zip(case["params"]["calls"], got, want):
        call = f"kv_bytes({', '.join(map(str, args))}{''.join(f', {k}={v}' for k, v in kwargs.items())})"
        value = _integer(g, call)
        if value != int(w["value"]):
            ratio = value / int(w["value"]) if w["value"] else 0
            why = " (half: a cache holds keys AND values)" if ratio == 0.5 else ""
            return f"{call} returned {value}; expected {int(w['value'])}{why}"
    return None


def fresh_cache_per_prompt(case, observation):
    out, want = _out(observation), _want(case)
    diff = array_difference(want["logits"]["array"], returned_array(out["logits"], "the step logits"), 0.0, REFERENCE)
    return (f"a second generate_with_cache with another prompt must start from a new, empty cache: {diff}"
            if diff else None)


CHECKS = [
    Check("same_ids", "both generators return the reference's ids", same_ids_both_paths, tagged("generation")),
    Check("logits_agree", "every step's logits agree, cached and uncached (1e-9)", logits_agree, tagged("generation")),
    Check("positions_counter", "model.positions follows its formula", counter("positions"), tagged("generation")),
    Check("scores_counter", "model.scores follows its formula", counter("scores"), tagged("generation")),
    Check("cache_layout", "the cache is reserved in full: (L, h, max_len, d_head), float64", cache_layout,
          tagged("generation")),
    Check("cache_contents", "cache length P + N - 1, filled part right, the rest zero", cache_contents,
          tagged("generation")),
    Check("one_buffer", "append writes into the reserved arrays", one_buffer, tagged("prefill_paths")),
    Check("prefills_agree", "one pass, two chunks and token by token build the same cache", prefills_agree,
          tagged("prefill_paths")),
    Check("causality", "growing the sequence leaves the prefix's keys and values unchanged", prefix_unchanged,
          tagged("causality")),
    Check("append_contract", "KVCache.append returns all t + m keys and values and leaves length alone",
          append_contract, tagged("append_contract")),
    Check("max_len_guard", "going past max_len is a clear error", max_len_guard, tagged("max_len_guard")),
    Check("kv_bytes", "kv_bytes on known model shapes", kv_bytes_values, tagged("kv_bytes")),
    Check("fresh_cache", "each generation starts from an empty cache", fresh_cache_per_prompt, tagged("fresh_cache")),
]


def same_behaviour(a, b):
    if ("error" in a) != ("error" in b):
        return False
    return "error" in a or _same_plain(a["output"], b["output"])


def _same_plain(a, b) -> bool:
    """Scenario outputs mix described values and raw arrays; compare both kinds to tolerance."""
    if isinstance(a, dict) and "kind" in a and isinstance(b, dict) and "kind" in b:
        if a["kind"] == b["kind"] == "array" and "array" not in a and "array" not in b:  # cache buffers: no data
            return a == b  # kind, type, dtype and shape
        return same_value(a, b, rtol=1e-6, atol=1e-9)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_plain(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_plain(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-6, atol=1e-9, equal_nan=True))
    if isinstance(a, float) and isinstance(b, float):
        return bool(np.isclose(a, b, rtol=1e-6, atol=1e-9))
    return a == b


# the long generation takes most of the time: a second child runs the other scenarios beside it
SUITE = Suite(probe="scenario", checks=CHECKS, same_behaviour=same_behaviour, build_cases=build_cases, shards=2)
