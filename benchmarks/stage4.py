"""Stage 4 (reference TinyDecoder): the cache's effect, a straightforward version, and the machine's limits.

- growth: time to first token (generation of 1 token) and decode speed of generate_no_cache
  and generate_with_cache at several prompt and generation lengths, default model;
- default size (d_model=128, n_layers=4, 48-token prompt, 160 new tokens): the reference's
  decode step against benchmarks/straightforward_decoder.py (logits equal to 1e-12), and the
  weights' matrix products alone, the floor no numpy code can go under;
- large size (d_model=1024, n_heads=16, n_layers=8, float64): bytes of weights and cache a
  decode step reads, divided by its time, against a cold matrix-vector product streaming the
  same bytes, measured turn about with it; and the prefill's FLOP rate against a large matmul.
"""
from __future__ import annotations

import time

import numpy as np

from benchmarks import straightforward_decoder
from benchmarks.limits import GB, ColdMatvec
from benchmarks.references import reference
from benchmarks.timing import growth_row, paired, stats

DEFAULT = dict(vocab=96, d_model=128, n_heads=4, n_layers=4, max_len=256, seed=0)
LARGE = dict(vocab=96, d_model=1024, n_heads=16, n_layers=8, max_len=256, seed=0)
PROMPT, NEW = 48, 160
TARGET_VS_STRAIGHTFORWARD = 2.0
TARGET_FRACTION_OF_MEMORY = 0.95


def prompt_ids(n: int, seed: int = 1, vocab: int = 96) -> list[int]:
    return [int(i) for i in np.random.default_rng(seed).integers(0, vocab, n)]


def weight_bytes(model) -> int:
    """What a decode step reads of the weights: every matrix once, plus one row of each embedding."""
    d, L, V = model.d_model, model.n_layers, model.vocab
    return 8 * (L * (4 * d * d + 2 * 4 * d * d) + d * V + 2 * d)


def cache_bytes(model, t: int) -> int:
    """Keys and values a decode step reads when t tokens are cached (it attends over t + 1)."""
    return 8 * 2 * model.n_layers * (t + 1) * model.d_model


def prefill_flops(model, m: int) -> int:
    """Matrix-product FLOPs of a prefill of m tokens (elementwise work left out)."""
    d, L, V = model.d_model, model.n_layers, model.vocab
    projections = 2 * m * d * (4 * d + 2 * 4 * d)  # q, k, v, o and the two MLP matrices
    attention = 2 * 2 * m * m * d  # scores and weights @ values, all heads together
    return L * (projections + attention) + 2 * m * d * V


def decode_seconds(model, prompt: list[int], feed: list[int]) -> float:
    """Prefill untimed, then time feeding `feed` one token at a time; seconds per token."""
    cache = model.new_cache()
    model.forward(prompt, cache)
    start = time.perf_counter()
    for token in feed:
        model.forward([token], cache)
    return (time.perf_counter() - start) / len(feed)


def weights_only_seconds(model, steps: int) -> float:
    """The decode step's weight products alone, on a fixed row: seconds per token."""
    d = model.d_model
    a, u = np.ones((1, d)), np.ones((1, 4 * d))
    start = time.perf_counter()
    for _ in range(steps):
        for layer in range(model.n_layers):
            a @ model.w_q[layer], a @ model.w_k[layer], a @ model.w_v[layer], a @ model.w_o[layer]
            a @ model.w_up[layer], u @ model.w_down[layer]
        a @ model.w_out
    return (time.perf_counter() - start) / steps


def _turns(fns: dict, repeats: int) -> dict:
    """Round-robin over functions that return their own per-token seconds."""
    values = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            values[name].append(fn())
    return {name: stats(v, "s/token") for name, v in values.items()}


def growth(td, quick: bool) -> list[dict]:
    model = td.TinyDecoder(**DEFAULT)
    lengths = [(48, 4), (48, 8)] if quick else [(48, 20), (48, 40), (48, 80), (48, 160), (16, 160), (96, 160)]
    rows = []
    for P, N in lengths:
        prompt = prompt_ids(P)
        row = growth_row(P, N, lambda n: td.generate_no_cache(model, prompt, n),
                         lambda n: td.generate_with_cache(model, prompt, n), 1 if quick else 3,
                         warmup=0 if quick else 1)
        rows.append(row)
        print(f"  stage 4     P={P:<4} N={N:<4} run: no cache {row['run_no_cache']['median']:.3f} s, "
              f"cache {row['run_cache']['median']:.4f} s ({row['speedup']['median']:.1f}x)", flush=True)
    return rows


def default_size(td, quick: bool, limits: dict) -> dict:
    n_new = 12 if quick else NEW
    model = td.TinyDecoder(**DEFAULT)
    plain = straightforward_decoder.StraightforwardDecoder(model)
    prompt = prompt_ids(PROMPT)
    ids, logits, _ = td.generate_with_cache(model, prompt, n_new)
    ids_s, logits_s, _ = straightforward_decoder.generate_with_cache(plain, prompt, n_new)
    difference = float(np.max(np.abs(np.asarray(logits) - logits_s)))
    assert ids == ids_s and difference <= 1e-12, f"straightforward decoder differs from the reference: {difference}"
    feed = ids[PROMPT:-1]  # what generation feeds after the prefill
    t = _turns({
        "reference": lambda: decode_seconds(model, prompt, feed),
        "straightforward": lambda: decode_seconds(plain, prompt, feed),
        "weights_only": lambda: weights_only_seconds(model, len(feed)),
    }, 2 if quick else 9)
    ratio = paired(t["straightforward"]["values"], t["reference"]["values"])
    prefill = _prefill(model, prompt, limits, 2 if quick else 7)
    mean_t = PROMPT + (len(feed) - 1) / 2
    read = weight_bytes(model) + cache_bytes(model, mean_t)
    print(f"  stage 4     default size: decode {1e6 * t['reference']['median']:.0f} us/token, "
          f"straightforward {1e6 * t['straightforward']['median']:.0f} us/token ({ratio['median']:.2f}x)", flush=True)
    return {"config": DEFAULT, "prompt": PROMPT, "new_tokens": n_new, "max_logit_difference": difference,
            "decode_s_per_token": t, "speedup_vs_straightforward": ratio,
            "best_possible_speedup": t["straightforward"]["median"] / t["weights_only"]["median"],
            "bytes_per_token": read, "weight_bytes": weight_bytes(model),
            "decode_GBps": read / t["reference"]["median"] / GB,
            "weights_only_GBps": weight_bytes(model) / t["weights_only"]["median"] / GB,
            "prefill": prefill}


def _prefill(model, prompt: list[int], limits: dict, repeats: int) -> dict:
    def run():
        model.forward(prompt, model.new_cache())

    run()
    values = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        values.append(time.perf_counter() - start)
    flops = prefill_flops(model, len(prompt))
    timed = stats(values, "s")
    rate = flops / timed["median"] / GB
    return {"seconds": timed, "flops": flops, "GFLOPps": rate,
            "fraction_of_matmul": rate / limits["matmul_GFLOPps"]["median"]}


def large_size(td, quick: bool, limits: dict) -> dict:
    config = dict(LARGE, d_model=256, n_heads=4, n_layers=2) if quick else LARGE
    n_feed = 4 if quick else 24
    model = td.TinyDecoder(**config)
    prompt = prompt_ids(PROMPT)
    feed = prompt_ids(n_feed, seed=2)
    mean_t = PROMPT + (n_feed - 1) / 2
    read = weight_bytes(model) + cache_bytes(model, mean_t)
    matvec = ColdMatvec(read, columns=model.d_model)

    def per_call(fn, calls=5):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        return (time.perf_counter() - start) / calls

    decode_seconds(model, prompt, feed[:2])  # warm-up
    t = _turns({
        "decode": lambda: decode_seconds(model, prompt, feed),
        "matvec": lambda: per_call(matvec.matrix_vector),
        "vecmat": lambda: per_call(matvec.vector_matrix),
        "weights_only": lambda: weights_only_seconds(model, 2 if quick else 8),
    }, 2 if quick else 9)
    decode = read / t["decode"]["median"] / GB
    best = max(matvec.nbytes / t["matvec"]["median"], matvec.nbytes / t["vecmat"]["median"]) / GB
    # run by run, turn about: decode bytes/s over the faster matvec's bytes/s of the same turn
    fraction = paired([read / s for s in t["decode"]["values"]],
                      [matvec.nbytes / min(a, b) for a, b in zip(t["matvec"]["values"], t["vecmat"]["values"])],
                      "fraction")
    weights_fraction = paired([weight_bytes(model) / s for s in t["weights_only"]["values"]],
                              [matvec.nbytes / min(a, b) for a, b in zip(t["matvec"]["values"], t["vecmat"]["values"])],
                              "fraction")
    prefill = _prefill(model, prompt, limits, 2 if quick else 5)
    print(f"  stage 4     large size: decode {1e3 * t['decode']['median']:.1f} ms/token, {decode:.1f} GB/s; "
          f"cold matvec {best:.1f} GB/s ({fraction['median']:.0%})", flush=True)
    nbytes = matvec.nbytes
    del matvec
    return {"config": config, "prompt": PROMPT, "decode_steps_timed": n_feed,
            "bytes_per_token": read, "weight_bytes": weight_bytes(model), "matvec_bytes": nbytes,
            "seconds_per_token": t,
            "decode_GBps": decode, "matvec_GBps": matvec_rate(nbytes, t["matvec"]),
            "vecmat_GBps": matvec_rate(nbytes, t["vecmat"]),
            "memory_limit_GBps": best, "fraction_of_memory_limit": fraction,
            "weights_only_fraction_of_memory_limit": weights_fraction,
            "copy_GBps_same_run": limits["copy_GBps"]["median"], "prefill": prefill}


def matvec_rate(nbytes: int, timed: dict) -> dict:
    return stats([nbytes / s / GB for s in timed["values"]], "GB/s")


def measure(quick: bool, limits: dict) -> dict:
    td = reference("tiny_decoder.py")
    out = {"growth": growth(td, quick)}
    out["default"] = default_size(td, quick, limits)
    out["large"] = large_size(td, quick, limits)
    return out
