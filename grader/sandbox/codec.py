"""Plain data in JSON, with numpy arrays as base64: the only format that crosses the process boundary.

Decoding never runs code from the data (no pickle), and accepts only numeric and boolean
dtypes, so the parent can read whatever a child sends without trusting it.
"""
import base64
import hashlib
import json

import numpy as np

_ARRAY = "__ndarray__"
_SAFE_KINDS = "biufc"


def to_plain(obj):
    if isinstance(obj, np.ndarray):
        arr = np.ascontiguousarray(obj)
        return {_ARRAY: [arr.dtype.str, list(arr.shape), base64.b64encode(arr.tobytes()).decode("ascii")]}
    if isinstance(obj, np.generic):
        return to_plain(np.asarray(obj))
    if isinstance(obj, dict):
        return {str(k): to_plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_plain(v) for v in obj]
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise TypeError(f"cannot send a {type(obj).__name__}")


def from_plain(obj):
    if isinstance(obj, dict):
        if _ARRAY in obj:
            return _decode_array(obj[_ARRAY])
        return {k: from_plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [from_plain(v) for v in obj]
    return obj


def _decode_array(fields):
    dtype_str, shape, data = fields
    dtype = np.dtype(str(dtype_str))
    if dtype.kind not in _SAFE_KINDS:
        raise ValueError(f"refused array of dtype {dtype}")
    shape = tuple(int(n) for n in shape)
    raw = base64.b64decode(data)
    if len(raw) != int(np.prod(shape, dtype=np.int64)) * dtype.itemsize:
        raise ValueError("array data does not match its shape")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def dumps(obj) -> str:
    return json.dumps(to_plain(obj))


def loads(text: str):
    return from_plain(json.loads(text))


def digest(arr: np.ndarray) -> str:
    """A fingerprint of an array's bytes: equal digests, unchanged array."""
    return hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()
