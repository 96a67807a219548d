"""The only code that touches learner code: run a stage's cases in a child process.

The child gets the inputs, sends back plain data (see sandbox/codec.py), and is killed
when it overruns its time. Whatever the child does, the parent ends up with a `Run`:
observations for the cases that finished and a plain account of what stopped the rest.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox import codec

CHILD = Path(__file__).parent / "sandbox" / "child.py"
PRINT_LIMIT = 2000  # characters of the learner's own prints kept for the report
DEFAULT_TIMEOUT = 30.0


@dataclass
class Run:
    observations: dict = field(default_factory=dict)  # case id -> observation dict
    load_error: dict | None = None
    stopped: str | None = None  # why cases are missing: "timeout", "exit", or None
    stopped_case: str | None = None  # the case that was running when the child stopped
    exit_code: int | None = None
    printed: str = ""


def child_environment() -> dict:
    env = dict(os.environ)
    # one BLAS thread: timings stay comparable and parallel children do not fight over cores
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    env["PYTHONHASHSEED"] = "0"
    return env


def run_cases(file: Path, function: str, probe: str, cases: list[dict], timeout: float = DEFAULT_TIMEOUT,
              user: tuple[int, int] | None = None) -> Run:
    with tempfile.TemporaryDirectory(prefix="kata-") as tmp:
        request = Path(tmp) / "request.json"
        results = Path(tmp) / "results.jsonl"
        request.write_text(codec.dumps({"file": str(Path(file).resolve()), "function": function,
                                        "probe": probe, "cases": cases}))
        results.touch()
        printed_path = Path(tmp) / "printed.txt"
        if user is not None:
            os.chown(tmp, *user)
            os.chown(results, *user)
        with open(printed_path, "wb") as printed:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-B", str(CHILD), str(request), str(results)],
                stdin=subprocess.DEVNULL, stdout=printed, stderr=subprocess.STDOUT,
                cwd=tmp, env=child_environment(), start_new_session=True,
                **({"user": user[0], "group": user[1], "extra_groups": []} if user else {}),
            )
            timed_out = False
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
            _kill_group(proc)  # also whatever the learner's code started and left running
        run = _read_results(results)
        run.exit_code = proc.returncode
        run.printed = printed_path.read_bytes()[:PRINT_LIMIT].decode("utf-8", "replace")
    _account_for_missing(run, cases, timed_out)
    return run


def run_sharded(file: Path, function: str, probe: str, cases: list[dict], shards: int,
                timeout: float = DEFAULT_TIMEOUT, user: tuple[int, int] | None = None) -> Run:
    """The cases split over `shards` children running at once. The first case, a suite's longest
    by convention, runs alone; the others are dealt round the remaining children."""
    if shards <= 1 or len(cases) < 2:
        return run_cases(file, function, probe, cases, timeout, user)
    from concurrent.futures import ThreadPoolExecutor

    rest = cases[1:]
    groups = [cases[:1]] + [rest[i::shards - 1] for i in range(shards - 1)]
    with ThreadPoolExecutor(max_workers=shards) as pool:
        runs = list(pool.map(lambda group: run_cases(file, function, probe, group, timeout, user), groups))
    merged = Run(printed="".join(r.printed for r in runs)[:PRINT_LIMIT])
    for run in runs:
        merged.observations.update(run.observations)
        merged.load_error = merged.load_error or run.load_error
        if run.stopped and not merged.stopped:
            merged.stopped, merged.stopped_case, merged.exit_code = run.stopped, run.stopped_case, run.exit_code
    return merged


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


RESULTS_LIMIT = 256 << 20  # bytes of results read back; a child that writes more is cut off there


def _read_results(path: Path) -> Run:
    run = Run()
    started = None
    with open(path, "rb") as f:
        text = f.read(RESULTS_LIMIT).decode("utf-8", "replace")
    for line in text.splitlines():
        try:
            event = codec.from_plain(json.loads(line))
        except (ValueError, TypeError):
            continue  # a garbled line counts as nothing
        if not isinstance(event, dict):
            continue
        kind = event.get("event")
        if kind == "load_error" and run.load_error is None:
            run.load_error = event.get("error") if isinstance(event.get("error"), dict) else {}
        elif kind == "start":
            started = event.get("case")
        elif kind == "done" and isinstance(event.get("observation"), dict):
            run.observations.setdefault(event.get("case"), event["observation"])
    run.stopped_case = started
    return run


def _account_for_missing(run: Run, cases: list[dict], timed_out: bool) -> None:
    if run.load_error is not None or all(c["id"] in run.observations for c in cases):
        return
    run.stopped = "timeout" if timed_out else "exit"
    if run.stopped_case in run.observations:
        run.stopped_case = None
