"""The machine's own limits, measured in the same run as everything they are compared with.

- copy: np.copyto between two large arrays, bytes copied per second (each byte is read once
  and written once);
- cold matvec: a matrix-vector product over a matrix far larger than the caches, bytes of
  matrix read per second: the most a decode step, which reads every weight once, can reach;
- matmul: a large square float64 matrix product, FLOP per second: the most a prefill can reach.
"""
from __future__ import annotations

import numpy as np

from benchmarks.timing import rate, seconds

GB = 1e9


class ColdMatvec:
    """A float64 matrix of `nbytes`, C columns wide, multiplied by a vector both ways:
    M @ y (the textbook matrix-vector product) and x @ M (a row vector times a matrix, the
    orientation of `a @ w` in a decode step). Too big for any cache, it streams from memory."""

    def __init__(self, nbytes: int, columns: int = 1024):
        rows = max(1, int(nbytes) // (8 * columns))
        self.matrix = np.ones((rows, columns))  # np.ones touches every page now, not in the timing
        self.y = np.ones(columns)
        self.x = np.ones(rows)
        self.nbytes = self.matrix.nbytes

    def matrix_vector(self):
        return self.matrix @ self.y

    def vector_matrix(self):
        return self.x @ self.matrix


def measure(quick: bool) -> dict:
    repeats = 2 if quick else 7
    copy_bytes = (32 if quick else 512) * 2**20
    src = np.ones(copy_bytes // 8)
    dst = np.zeros_like(src)  # written before timing, so no page is faulted in while timed
    copy = rate(src.nbytes / GB, seconds(lambda: np.copyto(dst, src), repeats), "GB/s")
    del src, dst

    matvec = ColdMatvec((32 if quick else 512) * 2**20)
    m_y = rate(matvec.nbytes / GB, seconds(matvec.matrix_vector, repeats), "GB/s")
    x_m = rate(matvec.nbytes / GB, seconds(matvec.vector_matrix, repeats), "GB/s")
    del matvec

    n = 256 if quick else 2048
    a, b = np.ones((n, n)), np.ones((n, n))
    matmul = rate(2 * n**3 / GB, seconds(lambda: a @ b, max(2, repeats // 2)), "GFLOP/s")
    return {
        "copy_GBps": copy, "copy_bytes": copy_bytes,
        "matvec_GBps": m_y, "vecmat_GBps": x_m, "matvec_bytes": (32 if quick else 512) * 2**20,
        "matmul_GFLOPps": matmul, "matmul_n": n,
    }
