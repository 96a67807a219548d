"""Sentences that show expected versus received. Every check builds its message here."""
from __future__ import annotations

import numpy as np

NEIGHBOURS = 3


def fmt(x) -> str:
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    return str(x)


def error_text(error: dict) -> str:
    text = f"raised {error.get('type', 'an error')}"
    if error.get("message"):
        text += f": {error['message']}"
    where = error.get("where")
    if isinstance(where, dict):
        text += f" (line {where.get('line')} of {where.get('file')}: `{where.get('code', '')}`)"
    return text


def shape_of(value: dict) -> str:
    return "(" + ", ".join(str(n) for n in value.get("shape", [])) + ("," if len(value.get("shape", [])) == 1 else "") + ")"


def kind_text(value: dict) -> str:
    """A short account of what came back: 'a float64 array of shape (1, 4)', 'a list of 5 items'."""
    kind = value.get("kind")
    if kind == "array":
        return f"a {value.get('dtype')} {value.get('type')} of shape {shape_of(value)}"
    if kind == "list":
        return f"a {value.get('type')} of {len(value.get('items', []))} items"
    if kind == "dict":
        return f"a dict with keys {sorted(value.get('items', {}))}"
    if kind == "scalar":
        return f"a single {value.get('type')} ({fmt(value.get('value'))})"
    return f"a {value.get('type', 'value')}: {value.get('repr', '')}"


def array_difference(expected: np.ndarray, received: np.ndarray, rtol: float, atol: float) -> str | None:
    """None when close; otherwise where and by how much they differ."""
    if expected.shape != received.shape:
        return f"expected shape {expected.shape}, received shape {received.shape}"
    if not np.all(np.isfinite(received)) and np.all(np.isfinite(expected)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(received))[0])
        return f"received {fmt(received[bad])} at index {bad}, expected {fmt(expected[bad])} (a finite number)"
    close = np.isclose(received, expected, rtol=rtol, atol=atol)
    if close.all():
        return None
    first = tuple(int(i) for i in np.argwhere(~close)[0])
    error = np.abs(received.astype(np.float64) - expected.astype(np.float64))
    worst = tuple(int(i) for i in np.unravel_index(np.argmax(error), error.shape))
    return (f"first difference at index {first}: expected {fmt(expected[first])}, received {fmt(received[first])}; "
            f"largest error {fmt(error[worst])} at index {worst}")


def token_difference(expected: list[int], received: list[int], prompt_length: int) -> str | None:
    if list(expected) == list(received):
        return None
    n = min(len(expected), len(received))
    first = next((i for i in range(n) if expected[i] != received[i]), n)
    lo, hi = max(0, first - NEIGHBOURS), first + NEIGHBOURS + 1
    where = (f"prompt position {first}" if first < prompt_length
             else f"position {first} (generated token {first - prompt_length + 1})")
    head = "... " if lo else ""

    def window(ids):
        return head + " ".join(str(int(t)) for t in ids[lo:hi]) + (" ..." if hi < len(ids) else "")

    if first == n:
        return (f"expected {len(expected)} ids, received {len(received)}; they agree on the first {n}\n"
                f"  expected: {window(expected)}\n  received: {window(received)}")
    return (f"first different id at {where}: expected {int(expected[first])}, received {int(received[first])}\n"
            f"  expected: {window(expected)}\n  received: {window(received)}")
