"""Grader latency as a learner feels it: whole `python -m grader check` processes, start to exit."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

from benchmarks.references import REPO
from benchmarks.timing import stats

ALL = ["check", "--target", "solutions"]
ONE = ["check", "kv_cache_step", "--target", "solutions"]


def _process(args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=REPO, env=dict(os.environ), capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"`python {' '.join(args)}` exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return elapsed


def _stage_seconds() -> dict:
    """Each stage's own grading time, from the --json report of one all-stages run."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        _process(["-m", "grader", *ALL, "--json", report])
        with open(report) as f:
            return {s["stage"]: round(s.get("seconds") or 0.0, 3) for s in json.load(f)["stages"]}


def measure(quick: bool) -> dict:
    repeats = 1 if quick else 7
    if not quick:
        _process(["-m", "grader", *ONE])  # warm-up: bytecode compiled, files in the page cache
    python_numpy = stats([_process(["-c", "import numpy"]) for _ in range(repeats)], "s")
    one = stats([_process(["-m", "grader", *ONE]) for _ in range(repeats)], "s")
    every = stats([_process(["-m", "grader", *ALL]) for _ in range(repeats)], "s")
    return {"all_stages": every, "one_stage": one, "python_import_numpy": python_numpy,
            "stage_seconds": _stage_seconds() if not quick else {},
            "commands": {"all_stages": "python -m grader " + " ".join(ALL),
                         "one_stage": "python -m grader " + " ".join(ONE)}}
