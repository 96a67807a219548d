"""Grade one stage of one target: run the learner's code apart, check, diagnose, report."""
from __future__ import annotations

import time
from pathlib import Path

from grader import expected, runner
from grader.cases import load_suite
from grader.diagnosis import diagnose
from grader.messages import error_text
from grader.report import FAILED, NOT_STARTED, PASSED, StageReport
from grader.stages import Stage
from grader.suite import run_check


def grade_stage(stage: Stage, file: Path, timeout: float = runner.DEFAULT_TIMEOUT,
                user: tuple[int, int] | None = None) -> StageReport:
    started = time.perf_counter()
    report = StageReport(stage.number, stage.name, stage.title, NOT_STARTED)
    if not file.is_file():
        report.note = f"no file {file}: create it (or run `kata reset {stage.name}`) to start this stage"
        return report
    suite = load_suite(stage.cases)
    cases = expected.load(stage.cases)["cases"]
    run = runner.run_sharded(file, stage.name, suite.probe, [expected.sent_to_child(c) for c in cases],
                             suite.shards, timeout, user)
    report.printed = run.printed
    report.seconds = time.perf_counter() - started
    source = file.read_text(errors="replace")
    rules = [rule.run(source) for rule in suite.source_checks]
    if run.load_error is not None:
        if run.load_error.get("not_implemented"):
            report.note = "the file raises NotImplementedError as it loads"
            return report
        report.status = FAILED
        report.note = f"your file could not be loaded: it {error_text(run.load_error)}"
        report.checks = [r for r in rules if not r.passed]
        return report
    observed = list(run.observations.values())
    if observed and all(isinstance(o.get("error"), dict) and o["error"].get("not_implemented") for o in observed):
        report.note = f"{stage.file} still raises NotImplementedError: start with its first TODO"
        return report

    def missing(case: dict) -> str:
        return _missing_reason(case, run, timeout)

    report.checks = [run_check(c, cases, run.observations, missing) for c in suite.checks_for(stage.name)] + rules
    report.status = PASSED if all(c.passed for c in report.checks) else FAILED
    _say_a_common_error_once(report, observed)
    if report.status == FAILED:
        report.mistakes = diagnose(stage.name, cases, run.observations, expected.load(stage.cases)["fingerprints"],
                                   suite.same_behaviour)
    return report


def _say_a_common_error_once(report: StageReport, observed: list[dict]) -> None:
    """When every case raised the same error at the same line, say it once, not once per check."""
    errors = [o.get("error") for o in observed]
    if not errors or not all(isinstance(e, dict) for e in errors):
        return
    first = errors[0]
    if any((e.get("type"), e.get("where")) != (first.get("type"), first.get("where")) for e in errors):
        return
    text = error_text(first)
    report.note = f"your code {text} on every case: fix that first"
    for check in report.checks:
        if text in check.message:
            check.message = f"{first.get('type')} on every case (above)"


def _missing_reason(case: dict, run: runner.Run, timeout: float) -> str:
    if run.stopped == "timeout":
        if case["id"] == run.stopped_case:
            return f"your code was still running after {timeout:g} s (an endless loop?) and was stopped"
        return "not run: your code was stopped earlier, on a case that never finished"
    if case["id"] == run.stopped_case:
        return (f"your code ended the grading process on this case (exit code {run.exit_code}): "
                f"a call to os._exit, or a crash inside native code")
    return "not run: your code ended the grading process on an earlier case"
