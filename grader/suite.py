"""Checks and suites: the data-plus-functions shape every stage's grader has.

A check is a learner-facing name and a small function `verify(case, observation)` that
returns None when the case passes and a sentence of expected versus received when it
fails. A suite is the list of checks for a set of cases, plus how to compare two
observations (used to recognise catalogued mistakes).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from grader.messages import error_text
from grader.report import CheckResult

Verify = Callable[[dict, dict], "str | None"]


class Mismatch(Exception):
    """Raised by a check's helpers to fail the case with this sentence."""


@dataclass(frozen=True)
class Check:
    name: str
    title: str
    verify: Verify
    applies: Callable[[dict], bool] = lambda case: True
    # most checks need the function to return; a few look only at what happened to the inputs
    needs_output: bool = True


@dataclass(frozen=True)
class SourceCheck:
    """A rule read from the learner's source text, without running it."""
    name: str
    title: str
    verify: Callable[[str], "str | None"]

    def run(self, source: str) -> CheckResult:
        message = self.verify(source)
        return CheckResult(self.name, self.title, passed=not message, message=message or "",
                           failed_cases=int(bool(message)), total_cases=1)


@dataclass
class Suite:
    probe: str  # how the child runs a case: see grader/sandbox/probes.py
    checks: list[Check]
    same_behaviour: Callable[[dict, dict], bool]
    build_cases: Callable[[], list[dict]]
    stage_checks: dict[str, list[Check]] = field(default_factory=dict)
    source_checks: list[SourceCheck] = field(default_factory=list)
    shards: int = 1  # children to spread the cases over, for a suite with one long case

    def checks_for(self, stage: str) -> list[Check]:
        return self.checks + self.stage_checks.get(stage, [])

    def check_names(self, stage: str) -> list[str]:
        return [c.name for c in self.checks_for(stage)] + [r.name for r in self.source_checks]


def run_check(check: Check, cases: list[dict], observations: dict, missing_reason: Callable[[dict], str]) -> CheckResult:
    failures = []
    applicable = [case for case in cases if check.applies(case)]
    for case in applicable:
        message = _verify_one(check, case, observations.get(case["id"]), missing_reason)
        if message:
            failures.append(f"on case {case['label']}: {message}")
    return CheckResult(
        name=check.name, title=check.title, passed=not failures,
        message=(failures[0] + (f"\n  (failed on {len(failures)} of {len(applicable)} cases)" if len(failures) > 1 else ""))
        if failures else "",
        failed_cases=len(failures), total_cases=len(applicable),
    )


def _verify_one(check: Check, case: dict, observation: dict | None, missing_reason) -> str | None:
    if observation is None:
        return missing_reason(case)
    error = observation.get("error")
    if isinstance(error, dict) and check.needs_output:
        return "your function " + error_text(error)
    try:
        return check.verify(case, observation)
    except Mismatch as mismatch:
        return str(mismatch)
    except Exception as exc:  # malformed data from the child: a failure, never a grader traceback
        return f"the grader could not read what your code returned ({type(exc).__name__}: {exc})"
