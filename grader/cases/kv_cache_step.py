"""Stage 1 cases and checks: one attention step with a cache."""
from __future__ import annotations

import numpy as np

from grader.cases.common import (inputs_unchanged_check, returned_array, returned_item,
                                 same_basics, same_value, tagged)
from grader.messages import array_difference, error_text, kind_text
from grader.suite import Check, Mismatch, Suite

ARGS = ["cached_K", "cached_V", "new_q", "new_k", "new_v"]
KEYS = ("output", "updated_K", "updated_V")


def _case(case_id, label, tags, args, readonly=False):
    dtype = str(args[0].dtype)
    return {"id": case_id, "label": f"{label}, {dtype}", "tags": list(tags), "args": args,
            "readonly": readonly, "dtype": dtype, "L": args[0].shape[0], "D": args[2].shape[1]}


def random_step(seed, L, D, dtype="float64", scale=1.0, tags=("values",), readonly=False):
    """Normal keys, values and query; `scale` stretches q and k so the scores grow by scale**2."""
    rng = np.random.default_rng(seed)
    K, V = rng.normal(size=(L, D)) * scale, rng.normal(size=(L, D))
    q, k, v = rng.normal(size=(1, D)) * scale, rng.normal(size=(1, D)) * scale, rng.normal(size=(1, D))
    args = [a.astype(dtype) for a in (K, V, q, k, v)]
    tags = list(tags) + (["empty"] if L == 0 else [])
    return _case(f"random-L{L}-D{D}-{dtype}-s{seed}", f"L={L}, D={D}", tags, args, readonly)


def zero_query(values, seed=0):
    """A zero query scores every key 0, so the output is the plain mean of all the values."""
    values = np.asarray(values, dtype=np.float64)
    n, D = values.shape
    rng = np.random.default_rng(seed)
    keys = rng.normal(size=(n, D))
    args = [keys[:-1], values[:-1], np.zeros((1, D)), keys[-1:], values[-1:]]
    return _case(f"zero-query-L{n - 1}-D{D}", f"zero query, L={n - 1}, D={D}", ["zero_query"], args)


def one_key_stands_out(L=6, D=8, favourite=4):
    """The query matches one cached key far more than the others: its value must dominate."""
    keys = np.eye(D)[: L + 1] * 3.0
    values = np.arange((L + 1) * D, dtype=np.float64).reshape(L + 1, D) / D
    q = keys[favourite : favourite + 1] * 3.0
    args = [keys[:-1], values[:-1], q, keys[-1:], values[-1:]]
    return _case(f"visible-L{L}-D{D}", f"query aimed at cached key {favourite}, L={L}, D={D}", ["visible"], args)


def build_cases() -> list[dict]:
    sizes = [(0, 1), (0, 5), (1, 1), (1, 3), (2, 2), (4, 8), (9, 3), (16, 16), (33, 7)]
    cases = [random_step(10 + i, L, D) for i, (L, D) in enumerate(sizes)]
    cases += [random_step(40 + i, L, D, "float32", tags=("values", "float32")) for i, (L, D) in
              enumerate([(6, 8), (0, 4), (20, 16)])]
    cases += [zero_query([[1.0, 0.0], [0.0, 1.0]]), zero_query(np.arange(12.0).reshape(6, 2) % 5, seed=1)]
    cases += [random_step(60, 5, 4, scale=200.0, tags=("huge",)),
              random_step(61, 7, 6, "float32", scale=30.0, tags=("huge", "float32"))]
    cases += [one_key_stands_out()]
    cases += [random_step(70, 4, 5, tags=("readonly",), readonly=True)]
    return cases


# ---- checks -------------------------------------------------------------------------------

def _tolerance(case):
    return (1e-4, 1e-5) if case["dtype"] == "float32" else (1e-7, 1e-10)


def _compare_output(case, observation, what="output"):
    got = returned_array(returned_item(observation, what), what)
    want = case["expected"]["output"]["items"][what]["array"]
    if got.shape != want.shape:
        raise Mismatch(f"{what} has shape {got.shape}, expected {want.shape}")
    return array_difference(want, got, *_tolerance(case))


def returns_dict(case, observation):
    out = observation["output"]
    if out.get("kind") != "dict":
        return f"expected a dict with keys {list(KEYS)}; received {kind_text(out)}"
    missing = [k for k in KEYS if k not in out["items"]]
    extra = [k for k in out["items"] if k not in KEYS]
    if missing or extra:
        return f"expected exactly the keys {list(KEYS)}; missing {missing}, unexpected {extra}"
    return None


def _appended(what, source, new):
    def verify(case, observation):
        got = returned_array(returned_item(observation, what), what)
        old, row = case["args"][source], case["args"][new]
        L, D = old.shape[0], row.shape[1]
        if got.shape != (L + 1, D):
            return f"{what} has shape {got.shape}; expected ({L + 1}, {D}): the {L} cached rows, then the new one"
        want = np.concatenate([old, row])
        if L and not np.array_equal(got, want) and np.array_equal(got, np.concatenate([row, old])):
            return f"the new token's row came first in {what}: it belongs at the end (row {L}), after the cache"
        diff = array_difference(want, got, 0.0, 0.0)
        return f"{what} is not the cache followed by the new row: {diff}" if diff else None
    return verify


def output_shape(case, observation):
    got = returned_array(returned_item(observation, "output"), "output")
    D = case["D"]
    if got.shape == (D,):
        return f"output has shape ({D},): the row dimension was dropped; keep it as (1, {D})"
    if got.shape != (1, D):
        return f"output has shape {got.shape}; expected (1, {D})"
    return None


def dtype_kept(case, observation):
    wrong = []
    for key in KEYS:
        value = returned_item(observation, key)
        if value.get("kind") == "array" and value.get("dtype") != case["dtype"]:
            wrong.append(f"{key} is {value.get('dtype')}")
    if wrong:
        advice = " (np.sqrt(D) is a float64 scalar; math.sqrt(D) keeps float32)" if case["dtype"] == "float32" else ""
        return f"the inputs are {case['dtype']} but {', '.join(wrong)}{advice}"
    return None


def empty_cache(case, observation):
    got = returned_array(returned_item(observation, "output"), "output")
    diff = array_difference(case["args"][4], got.reshape(case["args"][4].shape) if got.size == case["D"] else got,
                            *_tolerance(case))
    return f"with nothing cached the only key is new_k, so output must equal new_v: {diff}" if diff else None


def zero_query_mean(case, observation):
    diff = _compare_output(case, observation)
    return (f"a zero query gives every key the same weight, so output is the mean of all "
            f"{case['L'] + 1} values: {diff}") if diff else None


def stable_softmax(case, observation):
    got = returned_array(returned_item(observation, "output"), "output")
    if not np.all(np.isfinite(got)):
        return ("the scores are huge here and output contains inf or nan: subtract the row's maximum "
                "score before np.exp")
    return _compare_output(case, observation)


def every_key_visible(case, observation):
    diff = _compare_output(case, observation)
    return (f"the query should mostly see cached key 4 (all keys are visible; there is no mask on "
            f"the single query row): {diff}") if diff else None


def readonly_inputs(case, observation):
    error = observation.get("error")
    if isinstance(error, dict):
        advice = (": build new arrays instead of writing into the inputs"
                  if "read-only" in error.get("message", "") else "")
        return f"with read-only inputs your function {error_text(error)}{advice}"
    return None


CHECKS = [
    Check("returns_dict", "returns a dict with output, updated_K and updated_V", returns_dict),
    Check("keys_appended", "updated_K is the cached keys followed by new_k", _appended("updated_K", 0, 3)),
    Check("values_appended", "updated_V is the cached values followed by new_v", _appended("updated_V", 1, 4)),
    Check("output_shape", "output keeps its row: shape (1, D)", output_shape),
    Check("dtype_kept", "every array keeps the input dtype", dtype_kept),
    Check("output_values", "output matches the reference across sizes",
          lambda case, obs: _compare_output(case, obs), tagged("values")),
    Check("empty_cache", "with an empty cache, output equals new_v", empty_cache, tagged("empty")),
    Check("zero_query", "a zero query averages all the values", zero_query_mean, tagged("zero_query")),
    Check("stable_softmax", "huge scores give a finite, correct output", stable_softmax, tagged("huge")),
    Check("every_key_visible", "the new query sees every key (no mask)", every_key_visible, tagged("visible")),
    inputs_unchanged_check(ARGS),
    Check("readonly_inputs", "read-only inputs are accepted", readonly_inputs, tagged("readonly"), needs_output=False),
]


def same_behaviour(a, b):
    return same_basics(a, b) and ("error" in a or same_value(a["output"], b["output"]))


SUITE = Suite(probe="call", checks=CHECKS, same_behaviour=same_behaviour, build_cases=build_cases)
