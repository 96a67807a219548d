"""Pieces every suite shares: reading returned values, comparing behaviour, input checks."""
from __future__ import annotations

import numpy as np

from grader.messages import kind_text
from grader.sandbox.codec import digest
from grader.suite import Check, Mismatch


def returned_array(value: dict, what: str) -> np.ndarray:
    """The array inside a described value, or a Mismatch saying what came back instead."""
    if value.get("kind") != "array" or "array" not in value:
        raise Mismatch(f"{what} should be a numpy array; received {kind_text(value)}")
    return value["array"]


def returned_item(observation: dict, key: str) -> dict:
    out = observation["output"]
    if out.get("kind") != "dict":
        raise Mismatch(f"expected a dict; received {kind_text(out)}")
    if key not in out["items"]:
        raise Mismatch(f"the returned dict has no key {key!r} (its keys: {sorted(out['items'])})")
    return out["items"][key]


def same_value(a: dict, b: dict, rtol: float = 1e-5, atol: float = 1e-8) -> bool:
    """Two described values agree: same kind, shape and dtype, and numbers equal to tolerance."""
    if a.get("kind") != b.get("kind"):
        return False
    kind = a.get("kind")
    if kind == "array":
        x, y = a.get("array"), b.get("array")
        if a.get("dtype") != b.get("dtype") or x is None or y is None or x.shape != y.shape:
            return False
        return bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True))
    if kind == "dict":
        ia, ib = a.get("items", {}), b.get("items", {})
        return ia.keys() == ib.keys() and all(same_value(ia[k], ib[k], rtol, atol) for k in ia)
    if kind == "list":
        la, lb = a.get("items", []), b.get("items", [])
        return len(la) == len(lb) and all(same_value(x, y, rtol, atol) for x, y in zip(la, lb))
    if kind == "scalar":
        return bool(np.isclose(a.get("value"), b.get("value"), rtol=rtol, atol=atol, equal_nan=True))
    return a.get("type") == b.get("type")


def comparable(observation: dict) -> dict:
    """What behaviour is made of: the parts of an observation that do not vary run to run."""
    if "error" in observation:
        return {"error": True, "inputs_after": observation.get("inputs_after")}
    return {k: v for k, v in observation.items() if k != "seconds"}


FINGERPRINT_HEAD = 16  # values kept from a large array: its first ones, plus its shape and sums


def fingerprint(observation: dict):
    """A compact copy of an observation for recognising mistakes: arrays of more than a few
    dozen values shrink to their shape, first values and sums, which tell any two apart."""
    return _compact(comparable(observation))


def _compact(value):
    if isinstance(value, np.ndarray):
        if value.size <= 4 * FINGERPRINT_HEAD or value.dtype.kind not in "biuf":
            return value
        flat = value.astype(np.float64).ravel()
        with np.errstate(all="ignore"):
            stats = [flat.sum(), np.abs(flat).sum(), (flat * np.arange(1, flat.size + 1) / flat.size).sum()]
        return np.concatenate([[value.ndim, *value.shape], flat[:FINGERPRINT_HEAD], stats])
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def same_basics(a: dict, b: dict) -> bool:
    """Both raised, or both returned; and both left the same inputs changed."""
    return ("error" in a) == ("error" in b) and a.get("inputs_after") == b.get("inputs_after")


def inputs_unchanged_check(arg_names: list[str]) -> Check:
    def verify(case, observation):
        after = observation.get("inputs_after")
        if after is None:
            return None  # the function raised before the grader could look; other checks report it
        changed = [name for name, arg, d in zip(arg_names, case["args"], after)
                   if isinstance(arg, np.ndarray) and d != digest(arg)]
        if changed:
            return (f"your function changed {', '.join(changed)} in place; the caller still needs "
                    f"{'it' if len(changed) == 1 else 'them'} unchanged. Work on new arrays "
                    f"(x = x / s, not x /= s).")
        return None

    return Check("inputs_unchanged", "inputs are left unchanged", verify, needs_output=False)


def tagged(*tags: str):
    return lambda case: any(t in case["tags"] for t in tags)
