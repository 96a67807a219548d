"""Turn stage reports into text for a terminal or a log. Nothing here decides anything."""
from __future__ import annotations

import textwrap

from grader.report import FAILED, NOT_STARTED, PASSED, StageReport

MARK = {PASSED: "PASS", FAILED: "FAIL", NOT_STARTED: "TODO"}


def summary_line(report: StageReport) -> str:
    counts = f"{report.passed_checks}/{len(report.checks)} checks" if report.checks else ""
    return f"[{MARK[report.status]}] {report.number}. {report.stage:<34} {report.status:<12} {counts}".rstrip()


def _indent(text: str, prefix: str) -> str:
    return textwrap.indent(text, prefix, lambda line: True)


def stage_text(report: StageReport, verbose: bool = False) -> str:
    lines = [summary_line(report)]
    if report.note:
        lines.append(_indent(report.note, "      "))
    for check in report.checks:
        if check.passed and not verbose:
            continue
        mark = "ok  " if check.passed else "FAIL"
        lines.append(f"    {mark} {check.title}")
        if not check.passed:
            lines.append(_indent(check.message, "           "))
    if report.status == FAILED and report.checks:
        lines.extend(_mistakes_text(report))
    if report.printed.strip() and report.status != PASSED:
        lines.append("    Your code printed (shown, never graded):")
        lines.append(_indent(report.printed.rstrip()[:600], "      | "))
    return "\n".join(lines)


def _mistakes_text(report: StageReport) -> list[str]:
    if not report.mistakes:
        first = ("fix the error above first" if report.note
                 else "No catalogued mistake fits what your code did; start from the first difference above")
        return [f"    {first[0].upper()}{first[1:]}.", f"    Stuck? `kata hint {report.stage}`"]
    lines = ["    This looks like a known mistake:" if len(report.mistakes) == 1
             else "    This fits each of these known mistakes:"]
    for m in report.mistakes:
        lines.append(f"      * {m.title}")
        lines.append(_indent(textwrap.fill(m.explanation, 88), "          "))
    hints = sorted({m.hint for m in report.mistakes})
    lines.append(f"    Next: `kata hint {report.stage}` (hint {', '.join(str(h) for h in hints)} is the one that helps)")
    return lines


def closing_line(reports: list[StageReport]) -> str:
    passed = sum(r.status == PASSED for r in reports)
    todo = next((r for r in reports if r.status != PASSED), None)
    tail = f"; next: stage {todo.number}, {todo.stage}" if todo else "; all done"
    return f"{passed} of {len(reports)} stages passed{tail}"
