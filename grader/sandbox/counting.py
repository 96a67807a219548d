"""Count the multiply-accumulate work done against each block's weight matrices.

The weights are handed to learner code as a `CountingArray`. Every watched buffer (the
weights themselves, and any copy or concatenation made from them) keeps a tag per element:
which (block, matrix) it came from. A matrix product that involves a view of a watched
buffer is charged to the regions of the elements that view covers, in proportion. So
slices, per-head columns, transposes, `astype` copies and fused matrices such as
`np.concatenate([w_q, w_k, w_v], axis=1)` are all counted. The unit is one token row
through one full (D, D) matrix. (`np.asarray` and `np.array` return plain arrays that
cannot be watched; the stage 3 instructions say so.)
"""
import numpy as np

_PRODUCTS = {np.matmul, np.dot, np.inner, np.einsum, np.tensordot, np.vdot}
_JOINS = {np.concatenate, np.stack, np.hstack, np.vstack, np.column_stack}
_UNTAGGED = -1


def _address(arr: np.ndarray) -> int:
    return arr.__array_interface__["data"][0]


class Ledger:
    def __init__(self, weights: np.ndarray):
        n_blocks, n_mats, self.d, _ = weights.shape
        self.units = np.zeros((n_blocks, n_mats))
        self.buffers = []  # (start address, nbytes, itemsize, tag of each element in memory order)
        self.add_buffer(weights, np.arange(n_blocks * n_mats).repeat(self.d * self.d))

    def add_buffer(self, arr: np.ndarray, tags: np.ndarray) -> None:
        """Watch a fresh array; `tags` has its shape (or is already flat in its memory order)."""
        in_memory_order = np.empty_like(arr, dtype=np.int32, subok=False)  # the same layout as arr
        in_memory_order[...] = np.reshape(tags, arr.shape)
        flat = in_memory_order.ravel(order="K")
        self.buffers.append((_address(arr), arr.nbytes, arr.itemsize, flat))

    def tags(self, view: np.ndarray):
        """The region of each element of `view`, or None when it lies in no watched buffer."""
        address = _address(view)
        for start, nbytes, itemsize, tags in self.buffers:
            if start <= address < start + max(nbytes, 1) and view.itemsize == itemsize:
                strides = tuple(s // itemsize * tags.itemsize for s in view.strides)
                first = tags[(address - start) // itemsize:]
                return np.lib.stride_tricks.as_strided(first, shape=view.shape, strides=strides, writeable=False)
        return None

    def charge(self, operands, macs: float) -> None:
        for op in operands:
            if not isinstance(op, CountingArray):
                continue
            tags = self.tags(op)
            if tags is None or not tags.size:
                continue
            share = np.bincount(tags[tags != _UNTAGGED].ravel(), minlength=self.units.size) / tags.size
            self.units += (macs * share / (self.d * self.d)).reshape(self.units.shape)

    def tags_or_none(self, x) -> np.ndarray:
        """Tags for any operand of a join: watched views have theirs, everything else none."""
        tags = self.tags(x) if isinstance(x, CountingArray) else None
        return tags if tags is not None else np.full(np.shape(x), _UNTAGGED, dtype=np.int32)


LEDGER: Ledger | None = None


def _plain(x):
    if isinstance(x, CountingArray):
        return x.view(np.ndarray)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    return x


def _macs(func, args, kwargs, result) -> float:
    """Multiply-accumulates of one product, from the operands' shapes."""
    size = np.size(result)
    if func is np.einsum:
        spec = args[0] if isinstance(args[0], str) else None
        if spec is None or "..." in spec:
            return 0.0
        letters = {}
        for term, op in zip(spec.split("->")[0].split(","), args[1:]):
            for letter, n in zip(term.strip(), np.shape(op)):
                letters[letter] = n
        return float(np.prod(list(letters.values()), dtype=np.float64))
    if func is np.tensordot:
        a = args[0]
        axes = kwargs.get("axes", args[2] if len(args) > 2 else 2)
        if isinstance(axes, int):
            contracted = np.prod(np.shape(a)[len(np.shape(a)) - axes:], dtype=np.float64)
        else:
            a_axes = axes[0] if isinstance(axes[0], (list, tuple)) else [axes[0]]
            contracted = np.prod([np.shape(a)[i] for i in a_axes], dtype=np.float64)
        return float(size * contracted)
    a = args[0]
    inner = np.shape(a)[-1] if np.ndim(a) else 1
    return float(size * inner)


class CountingArray(np.ndarray):
    def __array_finalize__(self, obj):
        # a fresh copy of a watched view (astype, copy) is watched too, with the view's tags
        if LEDGER is not None and isinstance(obj, CountingArray) and self.base is None and self.shape == obj.shape:
            tags = LEDGER.tags(obj)
            if tags is not None:
                LEDGER.add_buffer(self, tags)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if "out" in kwargs:
            kwargs["out"] = _plain(kwargs["out"])
        result = getattr(ufunc, method)(*_plain(inputs), **kwargs)
        if ufunc is np.matmul and method == "__call__" and LEDGER is not None:
            LEDGER.charge(inputs, _macs(np.matmul, inputs, kwargs, result))
        return result

    def __array_function__(self, func, types, args, kwargs):
        result = func(*_plain(args), **{k: _plain(v) for k, v in kwargs.items()})
        if LEDGER is None:
            return result
        if func in _PRODUCTS:
            operands = args[1:] if func is np.einsum else args[:2]
            LEDGER.charge(operands, _macs(func, args, kwargs, result))
        elif func in _JOINS and isinstance(result, np.ndarray):
            # a fused matrix (e.g. [w_q | w_k | w_v]) is watched, each column charged to its source
            axis = {k: v for k, v in kwargs.items() if k == "axis"}
            tags = func([LEDGER.tags_or_none(x) for x in args[0]], *args[1:2], **axis)
            LEDGER.add_buffer(result, tags)
            return result.view(CountingArray)
        return result


def watch(weights: np.ndarray) -> tuple[np.ndarray, Ledger]:
    """The weights as a CountingArray (same memory) and the ledger that charges their use."""
    global LEDGER
    LEDGER = Ledger(weights)
    return weights.view(CountingArray), LEDGER
