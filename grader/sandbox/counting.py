"""Count the multiply-accumulate work done against each block's weight matrices.

The weights are handed to learner code as a `CountingArray`: indexing and slicing give
views of the same subclass, and every matrix product that involves one of those views
is charged to the (block, matrix) whose memory the view points into. The unit is one
token row through one full (D, D) matrix, so per-head slices add up to whole rows.
"""
import numpy as np

_PRODUCTS = {np.matmul, np.dot, np.inner, np.einsum, np.tensordot, np.vdot}


class Ledger:
    def __init__(self, weights: np.ndarray):
        self.n_blocks, self.n_mats, self.d, _ = weights.shape
        self.units = np.zeros((self.n_blocks, self.n_mats))
        self.buffers = []  # (start address, itemsize) of arrays laid out like the weights
        self.add_buffer(weights)

    def add_buffer(self, arr: np.ndarray) -> None:
        self.buffers.append((arr.__array_interface__["data"][0], arr.itemsize, arr.nbytes))

    def region(self, view: np.ndarray):
        address = view.__array_interface__["data"][0]
        for start, itemsize, nbytes in self.buffers:
            if start <= address < start + nbytes:
                index = (address - start) // (self.d * self.d * itemsize)
                return divmod(int(index), self.n_mats)
        return None

    def charge(self, operands, macs: float) -> None:
        for op in operands:
            if isinstance(op, CountingArray):
                where = self.region(op)
                if where is not None:
                    self.units[where] += macs / (self.d * self.d)


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
        # A fresh full copy (astype, copy) keeps the layout, so it is charged like the original.
        if LEDGER is not None and isinstance(obj, CountingArray) and self.base is None and self.shape == obj.shape:
            if obj.ndim == 4:
                LEDGER.add_buffer(self)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if "out" in kwargs:
            kwargs["out"] = _plain(kwargs["out"])
        result = getattr(ufunc, method)(*_plain(inputs), **kwargs)
        if ufunc is np.matmul and method == "__call__" and LEDGER is not None:
            LEDGER.charge(inputs, _macs(np.matmul, inputs, kwargs, result))
        return result

    def __array_function__(self, func, types, args, kwargs):
        result = func(*_plain(args), **{k: _plain(v) for k, v in kwargs.items()})
        if func in _PRODUCTS and LEDGER is not None:
            operands = args[1:] if func is np.einsum else args[:2]
            LEDGER.charge(operands, _macs(func, args, kwargs, result))
        return result


def watch(weights: np.ndarray) -> tuple[np.ndarray, Ledger]:
    """The weights as a CountingArray (same memory) and the ledger that charges their use."""
    global LEDGER
    LEDGER = Ledger(weights)
    return weights.view(CountingArray), LEDGER
