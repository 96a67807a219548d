"""Points: what each stage is worth and how much of it a report earns (Gradescope, batch, Classroom)."""
from __future__ import annotations

from grader.cases import load_suite
from grader.report import NOT_STARTED, StageReport
from grader.stages import STAGES, by_name
from grader.targets import UsageError


def parse_points(items: list[str] | None) -> dict[str, float]:
    """`["kv_cache_step=10", ...]` -> every stage's points, registry defaults for the rest."""
    points = {stage.name: float(stage.points) for stage in STAGES}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or name.strip() not in points:
            known = ", ".join(points)
            raise UsageError(f"--points takes STAGE=N with a stage among: {known} (got {item!r})")
        try:
            number = float(value)
        except ValueError:
            raise UsageError(f"--points {item!r}: {value!r} is not a number") from None
        if number < 0:
            raise UsageError(f"--points {item!r}: points cannot be negative")
        points[name.strip()] = number
    return points


def ran_checks(report: StageReport) -> bool:
    """Did the stage run its checks (not missing, not NotImplementedError, not a load failure)?"""
    return report.status != NOT_STARTED and not report.note and bool(report.checks)


def _guards(stage_name: str) -> set[str]:
    """Checks a function that computes nothing can pass: they look at the inputs or the source."""
    stage = by_name(stage_name)
    suite = load_suite(stage.cases)
    return ({c.name for c in suite.checks_for(stage.name) if not c.needs_output}
            | {r.name for r in suite.source_checks})


def earned(report: StageReport) -> list[bool]:
    """Which checks earn their share. A guard check (inputs left unchanged, read-only inputs,
    a rule read from the source) earns only when some check of the returned values passes too:
    `return {}` or a process that forges its results must not collect points for doing nothing."""
    if not ran_checks(report):
        return [False] * len(report.checks)
    guards = _guards(report.stage)
    worked = any(c.passed for c in report.checks if c.name not in guards)
    return [c.passed and (worked or c.name not in guards) for c in report.checks]


def stage_score(report: StageReport, points: float) -> float:
    """The stage's points split equally among its checks; nothing when it did not run."""
    if not ran_checks(report):
        return 0.0
    return points * sum(earned(report)) / len(report.checks)


def number(x: float, digits: int | None = 4) -> float | int:
    x = round(x, digits) if digits is not None else x
    return int(x) if x == int(x) else x
