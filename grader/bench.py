"""`kata bench STAGE [--target T] [--quick]`: time your own stage 2-4 code without and with the cache.

Shown, never graded. Your code runs in a child process, as in grading (one BLAS thread, so
the numbers do not swing with the other core's load). Stages 2 and 3 compare your stage 2
file (no cache) with your stage 3 file (cache); stage 4 compares generate_no_cache with
generate_with_cache on one TinyDecoder. Each generation is timed for several numbers of new
tokens n; the time per step at a sequence length is the difference between two runs divided
by the extra tokens, so it shows how one step's cost grows: with the sequence without a
cache, hardly at all with one.

This module imports only the standard library at the top: the child process loads it by
path and calls child_main(), with no access to the grader package.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

NO_CACHE_FILE, CACHE_FILE = "causal_lm_generate_no_cache.py", "causal_lm_generate_with_kv_cache.py"
STAGE4_FILE = "tiny_decoder.py"
BENCHED = {"causal_lm_generate_no_cache": 2, "causal_lm_generate_with_kv_cache": 3, "tiny_decoder": 4}
BAR = 40  # characters of the longest bar in the chart


# ----------------------------------------------------------------------------- child side

def _load(path: str):
    import importlib.util

    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))  # the learner's helper modules
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _error(exc: BaseException, path: str) -> dict:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(path)]
    where = f"{os.path.basename(path)}, line {frames[-1].lineno}: {(frames[-1].line or '').strip()}" if frames else ""
    return {"type": type(exc).__name__, "message": str(exc)[:300], "where": where,
            "not_implemented": isinstance(exc, NotImplementedError)}


def _timed(fn, budget: float = 2.0, repeats: int = 3):
    """The fastest of up to `repeats` runs, stopping early once `budget` seconds are spent."""
    best, spent, out = float("inf"), 0.0, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        elapsed = time.perf_counter() - start
        best, spent = min(best, elapsed), spent + elapsed
        if spent > budget:
            break
    return best, out


def _causal_lm_setup(quick: bool, grid: list[int]):
    import math

    import numpy as np

    P, V, D, L, H = 16, 96, (32 if quick else 64), (1 if quick else 2), 4
    rng = np.random.default_rng(0)
    prompt = rng.integers(0, V, P).astype(np.float64)
    w_emb, pos = rng.normal(size=(V, D)), rng.normal(size=(P + max(grid) - 1, D))
    blocks, w_head = rng.normal(size=(L, 6, D, D)) / math.sqrt(D), rng.normal(size=(D, V))
    config = f"D={D}, L={L}, heads={H}, V={V}, prompt {P} tokens, float64"

    def runner(module, which):
        fn = getattr(module, "causal_lm_generate_no_cache" if which == "no_cache" else "causal_lm_generate_with_kv_cache")
        return lambda n: [int(i) for i in fn(prompt, w_emb, pos, blocks, w_head, H, n)]

    return P, config, runner


def _tiny_decoder_setup(quick: bool, grid: list[int]):
    size = dict(d_model=32, n_heads=4, n_layers=2) if quick else dict(d_model=128, n_heads=4, n_layers=4)
    P = 16
    prompt = [(7 * i + 3) % 96 for i in range(P)]
    config = f"TinyDecoder(d_model={size['d_model']}, n_heads={size['n_heads']}, n_layers={size['n_layers']}), prompt {P} tokens"

    def runner(module, which):
        model = module.TinyDecoder(vocab=96, max_len=256, seed=0, **size)
        fn = module.generate_no_cache if which == "no_cache" else module.generate_with_cache
        return lambda n: [int(i) for i in fn(model, list(prompt), n)[0]]

    return P, config, runner


def child_main(request_path: str, results_path: str) -> None:
    with open(request_path) as f:
        request = json.load(f)
    out = open(results_path, "a", buffering=1)

    def emit(event: dict) -> None:
        out.write(json.dumps(event) + "\n")

    grid = request["grid"]
    setup = _causal_lm_setup if request["kind"] == "causal_lm" else _tiny_decoder_setup
    P, config, make = setup(request["quick"], grid)
    emit({"event": "config", "prompt": P, "config": config})
    modules = {}
    for which, path in request["files"].items():
        if not path:
            continue
        try:
            module = modules.get(path) or _load(path)
            modules[path] = module
            generate = make(module, which)
            generate(1)  # does it run at all?
        except BaseException as exc:  # a learner's SystemExit too
            emit({"event": "error", "which": which, "error": _error(exc, path)})
            continue
        last = None
        for n in grid:
            try:
                seconds, ids = _timed(lambda: generate(n), budget=0.5 if request["quick"] else 2.0,
                                      repeats=1 if request["quick"] else 3)
            except BaseException as exc:
                emit({"event": "error", "which": which, "error": _error(exc, path)})
                break
            last = ids
            emit({"event": "time", "which": which, "n": n, "seconds": seconds})
        emit({"event": "ids", "which": which, "ids": last})


# ----------------------------------------------------------------------------- parent side

def _run_child(request: dict, timeout: float) -> tuple[list[dict], str, bool]:
    from grader.runner import child_environment

    with tempfile.TemporaryDirectory(prefix="kata-bench-") as tmp:
        request_path, results_path = Path(tmp) / "request.json", Path(tmp) / "results.jsonl"
        request_path.write_text(json.dumps(request))
        results_path.touch()
        code = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('kata_bench', sys.argv[1]); "
                "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); m.child_main(sys.argv[2], sys.argv[3])")
        proc = subprocess.Popen([sys.executable, "-I", "-B", "-c", code, __file__, str(request_path), str(results_path)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                cwd=tmp, env=child_environment(), start_new_session=True)
        timed_out = False
        try:
            printed, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
            printed, _ = proc.communicate()
        events = []
        for line in results_path.read_text(errors="replace").splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
    return events, printed.decode("utf-8", "replace")[-1500:], timed_out


def _per_step(times: dict[int, float], P: int) -> list[tuple[int, float]]:
    """(sequence length, seconds per step) between consecutive numbers of new tokens."""
    ns = sorted(times)
    rows = []
    for a, b in zip(ns, ns[1:]):
        rows.append((P + (a + b) // 2, max(times[b] - times[a], 0.0) / (b - a)))
    return rows


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{1e3 * seconds:.3f}"


def render(stage_name: str, target: str, P: int, config: str, times: dict, notes: list[str]) -> str:
    no_cache, cache = times.get("no_cache", {}), times.get("cache", {})
    steps = {which: dict(_per_step(t, P)) for which, t in times.items() if len(t) > 1}
    lengths = sorted(set().union(*(s.keys() for s in steps.values()))) if steps else []
    lines = [f"kata bench {stage_name} (target: {target}): {config}",
             "Timing only: shown, never graded. One BLAS thread (OPENBLAS_NUM_THREADS=1).", ""]
    header = f"{'sequence length':>16} | {'no cache ms/step':>16} | {'cache ms/step':>14} | {'cache speedup':>13}"
    lines += [header, "-" * len(header)]
    first_a, first_b = no_cache.get(1), cache.get(1)
    lines.append(f"{f'first token ({P})':>16} | {_ms(first_a):>16} | {_ms(first_b):>14} | {'':>13}")
    for length in lengths:
        a, b = steps.get("no_cache", {}).get(length), steps.get("cache", {}).get(length)
        ratio = f"{a / b:.1f}x" if a is not None and b else ""
        lines.append(f"{length:>16} | {_ms(a):>16} | {_ms(b):>14} | {ratio:>13}")
    top = max((n for t in times.values() for n in t), default=None)
    if top is not None:
        whole = [f"{label} {times[w][top]:.3f} s" for w, label in (("no_cache", "no cache"), ("cache", "cache"))
                 if top in times.get(w, {})]
        if len(whole) == 2 and times["cache"][top] > 0:
            whole.append(f"cache {times['no_cache'][top] / times['cache'][top]:.1f}x faster")
        lines += ["", f"whole run of {top} new tokens: " + ", ".join(whole)]
    if lengths:
        biggest = max(v for s in steps.values() for v in s.values()) or 1.0
        lines += ["", "time per step against sequence length (# no cache, = cache):"]
        for length in lengths:
            for which, mark in (("no_cache", "#"), ("cache", "=")):
                value = steps.get(which, {}).get(length)
                if value is None:
                    continue
                label = f"{length:>6} " if which == "no_cache" or "no_cache" not in steps else " " * 7
                lines.append(f"{label}|{mark * max(1, round(BAR * value / biggest)):<{BAR}} {_ms(value)} ms")
        lines += ["", "Without a cache every step recomputes the whole sequence, so a step costs more as the "
                  "sequence grows; with one, a step feeds a single token and reads the cache."]
    return "\n".join(lines + ([""] + notes if notes else []))


def bench(stage_name: str, target: str, quick: bool = False, timeout: float = 300.0) -> int:
    from grader.targets import UsageError, resolve

    if stage_name.isdigit():
        stage_name = next((name for name, number in BENCHED.items() if number == int(stage_name)), stage_name)
    if stage_name not in BENCHED:
        raise UsageError(f"kata bench times the stages that generate tokens: {', '.join(BENCHED)} "
                         f"(stages 2 to 4); {stage_name!r} is not one of them")
    folder = resolve(target)
    if BENCHED[stage_name] == 4:
        kind, files = "tiny_decoder", {"no_cache": STAGE4_FILE, "cache": STAGE4_FILE}
        grid = [1, 5, 9, 17] if quick else [1, 16, 32, 64, 128, 224]
        named = ("no_cache", "cache")
    else:
        kind, files = "causal_lm", {"no_cache": NO_CACHE_FILE, "cache": CACHE_FILE}
        grid = [1, 5, 9, 17] if quick else [1, 17, 33, 65, 129]
        named = ("no_cache",) if BENCHED[stage_name] == 2 else ("cache",)
    paths = {which: str(folder / f) if (folder / f).is_file() else None for which, f in files.items()}
    if not all(paths[w] for w in named):
        print(f"{stage_name}: not started (no file {folder / files[named[0]]})")
        return 1
    events, printed, timed_out = _run_child({"kind": kind, "files": paths, "grid": grid, "quick": quick}, timeout)
    config = next((e for e in events if e.get("event") == "config"), {"prompt": 0, "config": ""})
    times: dict[str, dict[int, float]] = {}
    for e in events:
        if e.get("event") == "time":
            times.setdefault(e["which"], {})[e["n"]] = e["seconds"]
    errors = {e["which"]: e["error"] for e in events if e.get("event") == "error"}
    notes = []
    label = {"no_cache": "without the cache", "cache": "with the cache"}
    source = {"no_cache": files["no_cache"], "cache": files["cache"]}
    for which, error in errors.items():
        if error.get("not_implemented"):
            notes.append(f"{source[which]} ({label[which]}): not started (it raises NotImplementedError)")
        else:
            notes.append(f"{source[which]} ({label[which]}) raised {error['type']}: {error['message']}"
                         + (f" ({error['where']})" if error.get("where") else "") + " -- run `kata check` for details")
    for which in ("no_cache", "cache"):
        if paths[which] is None:
            notes.append(f"{source[which]} ({label[which]}): not started, nothing to compare with")
    ids = {e["which"]: e["ids"] for e in events if e.get("event") == "ids" and e.get("ids") is not None}
    if len(ids) == 2 and ids["no_cache"] != ids["cache"]:
        notes.append("note: the two paths returned different ids; `kata check` will say where")
    if timed_out:
        notes.append(f"stopped after {timeout:g} s (--timeout): the table shows what finished")
    if not any(times.get(w) for w in named):
        if all(errors.get(w, {}).get("not_implemented") for w in named):
            print(f"{stage_name}: not started ({files[named[0]]} still raises NotImplementedError); "
                  f"`kata check {stage_name}` grades it once it is written")
        else:
            print("\n".join([f"{stage_name}: nothing could be timed", *notes]
                            + ([f"your code printed:\n{printed}"] if printed.strip() else [])))
        return 1
    print(render(stage_name, target, config["prompt"], config["config"], times, notes))
    return 0


def cmd_bench(args) -> int:
    return bench(args.stage, args.target, args.quick, args.timeout)
