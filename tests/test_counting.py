"""The work counter charges every way of multiplying by a weight matrix, in whole token rows."""
import sys

import numpy as np
import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "grader" / "sandbox"))
import counting  # noqa: E402

D, H, T = 8, 2, 5


@pytest.fixture
def weights():
    w, ledger = counting.watch(np.random.default_rng(0).normal(size=(2, 6, D, D)))
    return w, ledger, np.ones((T, D))


def test_matmul_operator_charges_rows(weights):
    w, ledger, x = weights
    x @ w[1, 1]
    assert ledger.units[1, 1] == T and ledger.units.sum() == T


def test_per_head_slices_add_up_to_whole_rows(weights):
    w, ledger, x = weights
    w_k = w[0][1]
    for h in range(H):
        x @ w_k[:, h * D // H:(h + 1) * D // H]
    assert ledger.units[0, 1] == pytest.approx(T)


def test_einsum_dot_tensordot_and_unpacking(weights):
    w, ledger, x = weights
    w_q, w_k, w_v, w_o, w1, w2 = w[1]
    np.einsum("td,de->te", x, w_v)
    np.dot(x, w_k)
    np.tensordot(x, w_q, axes=1)
    assert ledger.units[1, :3].tolist() == pytest.approx([T, T, T])


def test_transposed_and_copied_weights_still_count(weights):
    w, ledger, x = weights
    (w.astype(np.float32)[0, 2].T @ x.T)
    assert ledger.units[0, 2] == pytest.approx(T)


def test_results_are_plain_arrays(weights):
    w, ledger, x = weights
    y = x @ w[0, 0]
    assert type(y) is np.ndarray and type(np.tanh(w[0, 0])) is np.ndarray


def test_a_fused_qkv_matrix_charges_each_part(weights):
    w, ledger, x = weights
    w_q, w_k, w_v = w[1, 0], w[1, 1], w[1, 2]
    qkv = x @ np.concatenate([w_q, w_k, w_v], axis=1)  # (T, 3D) in one product
    assert qkv.shape == (T, 3 * D)
    assert ledger.units[1, :3].tolist() == pytest.approx([T, T, T])
    assert ledger.units.sum() == pytest.approx(3 * T)


def test_stacked_and_sliced_fusions_still_count(weights):
    w, ledger, x = weights
    kv = np.stack([w[0, 1], w[0, 2]])  # (2, D, D)
    x @ kv[1]  # only the value matrix
    np.einsum("td,dhe->hte", x, np.hstack([w[0, 1], w[0, 2]]).reshape(D, 2, D))
    assert ledger.units[0, 1] == pytest.approx(T) and ledger.units[0, 2] == pytest.approx(2 * T)


def test_a_reversed_view_counts(weights):
    w, ledger, x = weights
    x[:, ::-1] @ w[0, 5][::-1]
    assert ledger.units[0, 5] == pytest.approx(T)


def test_joins_with_plain_arrays_charge_only_the_weights(weights):
    w, ledger, x = weights
    x @ np.concatenate([w[0, 1], np.zeros((D, D))], axis=1)
    assert ledger.units[0, 1] == pytest.approx(T) and ledger.units.sum() == pytest.approx(T)
