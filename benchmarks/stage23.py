"""Stages 2 and 3 (references): prefill time and decode speed without and with the cache.

Time to first token is generation with max_new_tokens=1 (one pass over the prompt: the same
work for both). Decode speed is (N - 1) new tokens over the time a run of N takes beyond that
first token. Without the cache each step recomputes the whole sequence, so a run's time grows
with N squared; with it each step is one token, so it grows with N.
"""
from __future__ import annotations

import math

import numpy as np

from benchmarks.references import reference
from benchmarks.timing import growth_row

V, D, L, HEADS = 96, 128, 4, 4
TARGET = (16, 240)  # the target's lengths: 16 prompt + 240 new tokens
TARGET_SPEEDUP = 20.0


def model(P: int, N: int, seed: int = 0):
    """Random weights in the grader's layout; the position table covers P + N - 1 positions."""
    rng = np.random.default_rng(seed)
    prompt = rng.integers(0, V, P).astype(np.float64)  # ids arrive as floats
    w_emb = rng.normal(size=(V, D))
    pos = rng.normal(size=(P + max(N - 1, 0), D))
    blocks = rng.normal(size=(L, 6, D, D)) / math.sqrt(D)  # (L, 6, D, D): w_q, w_k, w_v, w_o, w_mlp1, w_mlp2
    w_head = rng.normal(size=(D, V))
    return prompt, w_emb, pos, blocks, w_head, HEADS


def measure(quick: bool) -> dict:
    no_cache = reference("causal_lm_generate_no_cache.py").causal_lm_generate_no_cache
    with_cache = reference("causal_lm_generate_with_kv_cache.py").causal_lm_generate_with_kv_cache
    lengths = [(16, 4), (16, 8)] if quick else [(16, 30), (16, 60), (16, 120), (16, 240), (64, 120), (128, 120)]
    rows = []
    for P, N in lengths:
        args = model(P, N)
        same = np.array_equal(no_cache(*args, N), with_cache(*args, N))
        assert same, f"stage 2 and stage 3 references disagree at P={P}, N={N}"
        repeats = 1 if quick else (5 if (P, N) == TARGET else 3)
        row = growth_row(P, N, lambda n: no_cache(*args, n), lambda n: with_cache(*args, n), repeats,
                         warmup=0 if quick else 1)
        rows.append(row)
        print(f"  stages 2/3  P={P:<4} N={N:<4} run: no cache {row['run_no_cache']['median']:.3f} s, "
              f"cache {row['run_cache']['median']:.4f} s ({row['speedup']['median']:.1f}x)", flush=True)
    target_row = next((r for r in rows if (r["P"], r["N"]) == TARGET), None)
    return {"config": {"V": V, "D": D, "L": L, "heads": HEADS, "dtype": "float64"}, "rows": rows,
            "target": {"P": TARGET[0], "N": TARGET[1], "speedup_at_least": TARGET_SPEEDUP,
                       "speedup": target_row["speedup"]["median"] if target_row else None}}
