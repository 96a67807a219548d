"""`kata grade-batch SUBMISSIONS_DIR --out REPORT_DIR`: grade a class, one folder per learner.

Each subfolder of SUBMISSIONS_DIR is a target (its stage files at the top, or in an
exercises/ folder inside it, as in a clone of the learner's repository). Every (learner,
stage) grading is a job for a pool of `--workers` threads (default: the machine's cores),
each of which waits on one child process running learner code, so a submission that hangs,
crashes or exits costs only its own time limit. Writes REPORT_DIR/grades.csv (learner, one
column per stage with its score, total) and REPORT_DIR/<learner>.json (what `kata check
--json` writes). Scores use the same points as the Gradescope bundle (grader/scoring.py).
"""
from __future__ import annotations

import contextlib
import csv
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from grader import trust
from grader.scoring import number, parse_points, stage_score
from grader.grading import grade_stage
from grader.report import StageReport
from grader.stages import STAGES, Stage
from grader.targets import UsageError


def learners(submissions: Path) -> list[Path]:
    return sorted(p for p in submissions.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def target_of(folder: Path) -> Path:
    """The learner's folder, or its exercises/ when the stage files live there."""
    if not any((folder / s.file).is_file() for s in STAGES) and (folder / "exercises").is_dir():
        return folder / "exercises"
    return folder


class _Progress:
    """rich's progress bar when rich is installed, else one counter line on stderr."""

    def __init__(self, total: int, enabled: bool = True):
        self.total, self.done, self.enabled, self.bar = total, 0, enabled, None
        if enabled:
            try:
                from rich.progress import Progress
                from rich.console import Console

                self.bar = Progress(console=Console(stderr=True), transient=False)
                self.task = self.bar.add_task("grading learners", total=total)
                self.bar.start()
            except ImportError:
                self.bar = None

    def advance(self, learner: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(self.task, advance=1)
            return
        tty = sys.stderr.isatty()
        print(f"{chr(13) if tty else ''}graded {self.done}/{self.total} learners ({learner})",
              end="" if tty else "\n", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
        elif self.enabled and sys.stderr.isatty():
            print(file=sys.stderr)


def grade_batch(submissions: Path, out: Path, workers: int | None = None, timeout: float = 30.0,
                points: dict[str, float] | None = None, progress: bool = True) -> list[dict]:
    """Grade every learner, write grades.csv and one JSON report each; return the CSV rows."""
    submissions = Path(submissions)
    if not submissions.is_dir():
        raise UsageError(f"submissions folder {str(submissions)!r} is not a folder")
    points = points or parse_points([])
    folders = learners(submissions)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    exposed = trust.exposed_fixtures()
    if exposed:
        print(f"warning: learner code runs as {trust.UNPRIVILEGED!r} but can read the fixtures; "
              f"`chmod 600 {exposed[0].parent}/*.json` hides them", file=sys.stderr)
    reports: dict[str, dict[str, StageReport]] = {f.name: {} for f in folders}
    bar = _Progress(len(folders), progress)
    with contextlib.ExitStack() as stack, ThreadPoolExecutor(max_workers=max(1, workers or os.cpu_count() or 1)) as pool:
        jobs = {}
        for folder in folders:
            target = target_of(folder)
            staged = stack.enter_context(trust.readable_copy(target))
            for stage in STAGES:
                jobs[pool.submit(_grade, stage, target, staged, timeout)] = (folder.name, stage.name)
        try:
            for future in as_completed(jobs):
                learner, stage = jobs[future]
                reports[learner][stage] = future.result()
                if len(reports[learner]) == len(STAGES):
                    bar.advance(learner)
        finally:
            bar.close()
    rows = []
    for folder in folders:
        ordered = [reports[folder.name][s.name] for s in STAGES]
        with open(out / f"{folder.name}.json", "w") as f:
            json.dump({"target": str(target_of(folder)), "stages": [r.to_dict() for r in ordered]}, f, indent=1)
        scores = {r.stage: stage_score(r, points[r.stage]) for r in ordered}
        rows.append({"learner": folder.name, **{k: number(v) for k, v in scores.items()},
                     "total": number(sum(scores.values()))})
    with open(out / "grades.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["learner", *(s.name for s in STAGES), "total"])
        writer.writeheader()
        writer.writerows(rows)
    return rows


def _grade(stage: Stage, target: Path, staged: Path, timeout: float) -> StageReport:
    if not (target / stage.file).is_file():
        return grade_stage(stage, target / stage.file, timeout)  # not started: nothing runs
    file = staged / stage.file
    return grade_stage(stage, file, timeout, trust.child_user(file))


def cmd_grade_batch(args) -> int:
    points = parse_points(args.points)
    rows = grade_batch(Path(args.submissions), Path(args.out), args.workers, args.timeout, points)
    total = number(sum(points.values()))
    for row in rows:
        print(f"{row['learner']:<30} {row['total']} / {total}")
    print(f"graded {len(rows)} learners: {Path(args.out) / 'grades.csv'} and one JSON report each")
    return 0
