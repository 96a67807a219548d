"""The `kata` command line: `python -m grader ...` or, installed, `kata ...`."""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from concurrent.futures import ThreadPoolExecutor

from grader import render, runner
from grader.console import show
from grader.grading import grade_stage
from grader.report import PASSED, StageReport
from grader.stages import STAGES, Stage, by_name
from grader.targets import UsageError, resolve
from grader.trust import child_user


def grade(stages: list[Stage], target: str, timeout: float) -> list[StageReport]:
    folder = resolve(target)
    with ThreadPoolExecutor(max_workers=len(stages) or 1) as pool:
        return list(pool.map(lambda s: grade_stage(s, folder / s.file, timeout, child_user(folder / s.file)), stages))


def pick_stages(names: list[str]) -> list[Stage]:
    try:
        return [by_name(n) for n in names] if names else list(STAGES)
    except KeyError as missing:
        known = ", ".join(s.name for s in STAGES)
        raise UsageError(f"unknown stage {missing}; the stages are: {known}") from None


def cmd_check(args) -> int:
    reports = grade(pick_stages(args.stages), args.target, args.timeout)
    show("\n".join([*(render.stage_text(r, args.verbose) for r in reports), render.closing_line(reports)]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"target": args.target, "stages": [r.to_dict() for r in reports]}, f, indent=1)
    return 0 if all(r.status == PASSED for r in reports) else 1


def cmd_list(args) -> int:
    reports = grade(list(STAGES), args.target, args.timeout)
    current = next((r.stage for r in reports if r.status != PASSED), None)
    lines = [f"{'->' if r.stage == current else '  '} {render.summary_line(r)}" for r in reports]
    show("\n".join([*lines, render.closing_line(reports)]))
    return 0


def cmd_hint(args) -> int:
    from grader.hints import next_hint

    print(next_hint(pick_stages([args.stage])[0]))
    return 0


def cmd_watch(args) -> int:
    from grader.watch import watch

    return watch(resolve(args.target), args.timeout)


def cmd_reset(args) -> int:
    from grader.reset import reset

    print(reset(pick_stages([args.stage])[0], args.yes))
    return 0


def cmd_reset_hints(args) -> int:
    from grader.hints import reset

    reset()
    print("hints start over from hint 1 for every stage")
    return 0


def cmd_mistakes(args) -> int:
    from grader import catalogue_page

    if args.markdown:
        print(catalogue_page.markdown())
        return 0
    show("\n".join(catalogue_page.stage_text(stage) for stage in pick_stages(args.stages)))
    return 0


def elsewhere(module: str, name: str):
    """A command that lives in grader/<module>.py, imported only when it runs (keeps `kata check` quick)."""
    def run(args) -> int:
        return getattr(importlib.import_module(f"grader.{module}"), name)(args)
    return run


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="kata", description="Grade the KV-cache kata.")
    sub = top.add_subparsers(dest="command", required=True)

    def with_target(p):
        p.add_argument("--target", default="exercises",
                       help="exercises (default), solutions, or a folder holding stage files")
        p.add_argument("--timeout", type=float, default=runner.DEFAULT_TIMEOUT,
                       help="seconds a stage's code may run before it is stopped")
        return p

    p = with_target(sub.add_parser("check", help="grade stages (all when none are named)"))
    p.add_argument("stages", nargs="*", metavar="STAGE")
    p.add_argument("--verbose", "-v", action="store_true", help="show passing checks too")
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    p.set_defaults(run=cmd_check)

    p = with_target(sub.add_parser("list", help="stages in order, with their status"))
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("hint", help="the next hint for a stage")
    p.add_argument("stage", metavar="STAGE")
    p.set_defaults(run=cmd_hint)

    p = with_target(sub.add_parser("watch", help="re-grade the current stage on every save"))
    p.set_defaults(run=cmd_watch)

    p = sub.add_parser("reset", help="restore a stage's stub (your file is backed up)")
    p.add_argument("stage", metavar="STAGE")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask first")
    p.set_defaults(run=cmd_reset)

    p = sub.add_parser("mistakes", help="the common mistakes of each stage, and how to avoid them")
    p.add_argument("stages", nargs="*", metavar="STAGE")
    p.add_argument("--markdown", action="store_true", help="print the whole catalogue as Markdown")
    p.set_defaults(run=cmd_mistakes)

    p = sub.add_parser("reset-hints", help="show every stage's hints from the first again")
    p.set_defaults(run=cmd_reset_hints)

    p = sub.add_parser("bench", help="time your stage 2-4 code without and with the cache (shown, never graded)")
    p.add_argument("stage", metavar="STAGE")
    p.add_argument("--target", default="exercises", help="exercises (default), solutions, or a folder holding stage files")
    p.add_argument("--quick", action="store_true", help="small sizes: a run of a few seconds")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds the timed code may run in all")
    p.set_defaults(run=elsewhere("bench", "cmd_bench"))

    # instructors' commands (grader/release.py, gradescope.py, classroom.py, batch.py)
    points = dict(action="append", default=[], metavar="STAGE=N",
                  help="points for a stage (repeatable; default: the registry's, 25 per stage)")
    p = sub.add_parser("release", help="write the learner's copy: no solutions/, no tests/")
    p.add_argument("out_dir", metavar="OUT_DIR")
    p.set_defaults(run=elsewhere("release", "cmd_release"))
    p = sub.add_parser("gradescope", help="build a Gradescope autograder zip")
    p.add_argument("out_zip", metavar="OUT.zip")
    p.add_argument("--points", **points)
    p.add_argument("--timeout", type=float, default=runner.DEFAULT_TIMEOUT, help="seconds per stage")
    p.set_defaults(run=elsewhere("gradescope", "cmd_gradescope"))
    p = sub.add_parser("classroom", help="write .github/classroom/autograding.json from the stages")
    p.add_argument("--points", **points)
    p.add_argument("--check", action="store_true", help="exit 1 if the committed file is out of date")
    p.set_defaults(run=elsewhere("classroom", "cmd_classroom"))
    p = sub.add_parser("grade-batch", help="grade one folder per learner into grades.csv and JSON reports")
    p.add_argument("submissions", metavar="SUBMISSIONS_DIR")
    p.add_argument("--out", required=True, metavar="REPORT_DIR")
    p.add_argument("--workers", type=int, default=None, help="gradings at once (default: the cores)")
    p.add_argument("--timeout", type=float, default=runner.DEFAULT_TIMEOUT, help="seconds per stage")
    p.add_argument("--points", **points)
    p.set_defaults(run=elsewhere("batch", "cmd_grade_batch"))
    return top


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit_:  # argparse: 2 for usage errors, 0 for --help
        return int(exit_.code or 0)
    try:
        return args.run(args)
    except UsageError as problem:
        print(f"kata: {problem}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
