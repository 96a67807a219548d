"""Repeat a measurement and keep the median, min and max."""
from __future__ import annotations

import statistics
import time


def stats(values: list[float], unit: str) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "runs": len(values), "unit": unit, "values": [round(v, 9) for v in values]}


def seconds(fn, repeats: int, warmup: int = 1) -> dict:
    """Wall time of fn() over `repeats` runs, after `warmup` untimed runs."""
    for _ in range(warmup):
        fn()
    values = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        values.append(time.perf_counter() - start)
    return stats(values, "s")


def rate(amount: float, timed: dict, unit: str) -> dict:
    """amount / time for each run: the fastest run gives the max, the slowest the min."""
    return stats([amount / s for s in timed["values"]], unit)


def interleaved(fns: dict, repeats: int, warmup: int = 1) -> dict:
    """Time several functions round-robin, so a busy spell on a shared machine hits them alike."""
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    values = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            values[name].append(time.perf_counter() - start)
    return {name: stats(v, "s") for name, v in values.items()}


def fmt(stat: dict, scale: float = 1.0, digits: int = 3) -> tuple[str, str, str]:
    return tuple(f"{stat[k] * scale:.{digits}g}" for k in ("median", "min", "max"))


def paired(numerators: list[float], denominators: list[float], unit: str = "x") -> dict:
    """Ratios of runs measured turn about: run i of one over run i of the other."""
    return stats([a / b for a, b in zip(numerators, denominators)], unit)


def growth_row(P: int, N: int, no_cache, with_cache, repeats: int, warmup: int) -> dict:
    """Time to first token, decode rate and whole-run speedup at one (P, N), without and with a
    cache. `no_cache(n)` and `with_cache(n)` generate n tokens after the P-token prompt."""
    t = interleaved({
        "first_no_cache": lambda: no_cache(1),
        "first_cache": lambda: with_cache(1),
        "run_no_cache": lambda: no_cache(N),
        "run_cache": lambda: with_cache(N),
    }, repeats, warmup=warmup)
    row = {"P": P, "N": N, **t}
    for kind in ("no_cache", "cache"):
        decode = max(t[f"run_{kind}"]["median"] - t[f"first_{kind}"]["median"], 1e-12)
        row[f"decode_tokens_per_s_{kind}"] = (N - 1) / decode
        row[f"decode_ms_per_token_{kind}"] = 1e3 * decode / (N - 1)
    row["speedup"] = paired(t["run_no_cache"]["values"], t["run_cache"]["values"])
    return row
