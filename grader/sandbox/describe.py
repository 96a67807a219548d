"""Turn whatever learner code returned into plain data the parent can inspect."""
import numpy as np

MAX_ITEMS = 10_000
MAX_DEPTH = 3


def describe(obj, depth: int = 0) -> dict:
    kind = type(obj).__name__
    if isinstance(obj, np.ndarray) or (hasattr(obj, "__array__") and hasattr(obj, "shape")):
        try:
            arr = np.asarray(obj)
        except Exception:
            return {"kind": "other", "type": kind, "repr": _short_repr(obj)}
        info = {"kind": "array", "type": kind, "dtype": str(arr.dtype), "shape": list(arr.shape)}
        if arr.dtype.kind in "biufc" and arr.size <= 4 * MAX_ITEMS:
            info["array"] = arr
        return info
    if isinstance(obj, (bool, int, float, np.generic)):
        return {"kind": "scalar", "type": kind, "dtype": str(np.asarray(obj).dtype), "value": _scalar(obj)}
    if depth < MAX_DEPTH and isinstance(obj, dict):
        items = list(obj.items())[:MAX_ITEMS]
        return {"kind": "dict", "type": kind, "items": {str(k): describe(v, depth + 1) for k, v in items}}
    if depth < MAX_DEPTH and isinstance(obj, (list, tuple)):
        return {"kind": "list", "type": kind, "items": [describe(v, depth + 1) for v in list(obj)[:MAX_ITEMS]]}
    return {"kind": "other", "type": kind, "repr": _short_repr(obj)}


def _scalar(obj):
    value = np.asarray(obj).item()
    return value if isinstance(value, (bool, int, float)) else float(np.real(value))


def _short_repr(obj) -> str:
    try:
        return repr(obj)[:200]
    except Exception:
        return "<unprintable>"
