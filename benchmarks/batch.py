"""Batch grading throughput: the same class graded with 1 worker and with every core.

The class is N copies of solutions/ (N learners). With grader/batch.py present (`kata
grade-batch`) the benchmark calls its grade_batch(); without it, every (learner, stage)
grading goes through grader.grading.grade_stage on a ThreadPoolExecutor. The quick run's
learners hold only stage 1 (the other stages are "not started" and cost nothing).
"""
from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.references import SOLUTIONS
from benchmarks.timing import stats

TARGET_SCALING = 1.7


def _class(root: Path, learners: int, files: list[Path]) -> Path:
    submissions = root / "submissions"
    for i in range(learners):
        folder = submissions / f"learner_{i + 1:02d}"
        folder.mkdir(parents=True)
        for f in files:
            shutil.copy(f, folder / f.name)
    return submissions


def _grade_with_batch(submissions: Path, out: Path, workers: int) -> None:
    from grader.batch import grade_batch

    with contextlib.redirect_stderr(io.StringIO()):  # its progress line and warnings
        grade_batch(submissions, out, workers=workers, progress=False)


def _grade_with_pool(submissions: Path, out: Path, workers: int) -> None:
    from grader.grading import grade_stage
    from grader.stages import STAGES

    jobs = [(stage, folder / stage.file) for folder in sorted(submissions.iterdir()) for stage in STAGES]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(lambda job: grade_stage(*job), jobs))


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the graded code's processes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def measure(quick: bool) -> dict:
    learners = 2 if quick else 8
    repeats = 1 if quick else 3
    files = [SOLUTIONS / "kv_cache_step.py"] if quick else sorted(SOLUTIONS.glob("*.py"))
    cores = os.cpu_count() or 1
    use_batch = (Path(__file__).resolve().parents[1] / "grader" / "batch.py").is_file()
    grade = _grade_with_batch if use_batch else _grade_with_pool
    results = {}
    with tempfile.TemporaryDirectory(prefix="kata-bench-") as tmp:
        submissions = _class(Path(tmp), learners, files)
        counts = [1] if cores == 1 else [1, cores]
        values, busy = {w: [] for w in counts}, {w: [] for w in counts}
        for _ in range(repeats):
            for workers in counts:  # turn about, so a busy spell hits both alike
                out = Path(tmp) / f"out-{workers}"
                cpu = _cpu_seconds()
                start = time.perf_counter()
                grade(submissions, out, workers)
                elapsed = time.perf_counter() - start
                values[workers].append(learners / elapsed)
                busy[workers].append((_cpu_seconds() - cpu) / elapsed)
        for workers in counts:
            results[str(workers)] = stats(values[workers], "learners/s")
            results[str(workers)]["cores_busy"] = stats(busy[workers], "cores")
    scaling = results[str(cores)]["median"] / results["1"]["median"] if cores > 1 else None
    print(f"  batch       {learners} learners: " + ", ".join(
        f"{w} worker(s) {results[str(w)]['median']:.2f} learners/s" for w in counts), flush=True)
    return {"route": "grader.batch.grade_batch" if use_batch else "grade_stage on a ThreadPoolExecutor",
            "learners": learners, "stages_per_learner": len(files), "cores": cores,
            "throughput": results, "scaling": scaling}
