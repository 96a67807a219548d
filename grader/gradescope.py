"""`kata gradescope OUT.zip`: an autograder bundle that follows Gradescope's specification.

The zip holds, at its root, `setup.sh` (run once as root when Gradescope builds the image:
installs Python, numpy and this kata, and makes the fixtures readable by root alone),
`run_autograder` (run for every submission), `gradescope.json` (points and time limit) and
the student release (grader/ without solutions/ or tests/). Gradescope unpacks it into
/autograder/source; the root is /autograder, or $AUTOGRADER_ROOT when set (for testing).

For each submission, `run_autograder` finds the stage files anywhere under
$AUTOGRADER_ROOT/submission (the shallowest of each name), copies them and any .py helper
modules beside them into a fresh target folder, grades every stage
through the same `grade_stage` as `kata check` (learner code in a child process, as the
user `nobody` when running as root, see grader/trust.py) and writes
$AUTOGRADER_ROOT/results/results.json: one test per check, named
"<n>. <stage>: <check title>", worth the stage's points split equally among its checks, with
the message a learner sees as its output; one test for a stage that is not started or does
not load; the total score; everything visible.

Points: each stage is worth its registry `points` (grader/stages.py, 25 by default);
`--points STAGE=N` changes one stage (repeat the option for more). A check that only guards
the inputs or the source (inputs left unchanged, read-only inputs accepted, no packaged layers)
earns its share only when at least one check of the returned values passes as well.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader import release, render, runner, trust
from grader.grading import grade_stage
from grader.report import NOT_STARTED, StageReport
from grader.scoring import ran_checks, earned, number, parse_points, stage_score
from grader.stages import STAGES, Stage

CONFIG = "gradescope.json"
VISIBILITY = "visible"
SKIP = ("__MACOSX",)

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (the zip is
# unpacked in /autograder/source). It installs Python, numpy and the kata, then makes the
# fixtures readable by root alone: learner code runs as `nobody` and cannot read them.
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! command -v python3 >/dev/null || ! python3 -m pip --version >/dev/null 2>&1; then
    apt-get update && apt-get install -y python3 python3-pip
fi
pip_install() { python3 -m pip install "$@" || python3 -m pip install --break-system-packages "$@"; }
pip_install numpy
pip_install -e "$SOURCE"
chmod -R a+rX "$SOURCE"
chmod 700 "$SOURCE/grader/fixtures"
chmod 600 "$SOURCE"/grader/fixtures/*.json
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission: grade $AUTOGRADER_ROOT/submission (default
# /autograder) and write $AUTOGRADER_ROOT/results/results.json. See grader/gradescope.py.
set -uo pipefail
export AUTOGRADER_ROOT="${AUTOGRADER_ROOT:-/autograder}"
cd "$AUTOGRADER_ROOT/source"
exec "${KATA_PYTHON:-python3}" -m grader.gradescope run
"""


# ---- results.json ---------------------------------------------------------------------------

def stage_tests(report: StageReport, points: float) -> list[dict]:
    if not ran_checks(report):
        messages = [report.note] + [f"{c.title}: {c.message}" for c in report.checks if not c.passed]
        what = report.status if report.status == NOT_STARTED else "your file does not load"
        return [{"name": f"{report.number}. {report.stage}: {what}",
                 "score": 0, "max_score": number(points), "status": "failed",
                 "output": "\n".join(m for m in messages if m), "visibility": VISIBILITY}]
    share = points / len(report.checks)
    unearned = ("passed, but this check earns its points only once a check of the values your "
                "function returns passes too")
    return [{"name": f"{report.number}. {report.stage}: {check.title}",
             "score": number(share if earns else 0.0, None), "max_score": number(share, None),
             "status": "passed" if check.passed else "failed",
             "output": check.message if not check.passed else ("" if earns else unearned),
             "visibility": VISIBILITY}
            for check, earns in zip(report.checks, earned(report))]


def results(reports: list[StageReport], points: dict[str, float], seconds: float = 0.0,
            preamble: str = "") -> dict:
    text = "\n\n".join(render.stage_text(r) for r in reports) + "\n\n" + render.closing_line(reports)
    return {
        "score": number(sum(stage_score(r, points[r.stage]) for r in reports)),
        "execution_time": int(round(seconds)),
        "output": (preamble + "\n\n" if preamble else "") + text,
        "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY,
        "tests": [t for r in reports for t in stage_tests(r, points[r.stage])],
    }


# ---- run_autograder -------------------------------------------------------------------------

def autograder_root() -> Path:
    return Path(os.environ.get("AUTOGRADER_ROOT") or "/autograder")


def find_stage_files(submission: Path) -> dict[str, Path]:
    """stage name -> the submitted file with that stage's file name, the shallowest one first."""
    found: dict[str, Path] = {}
    if not submission.is_dir():
        return found
    candidates = sorted((p for p in submission.rglob("*.py")
                         if p.is_file() and not any(part in SKIP or part.startswith(".")
                                                    for part in p.relative_to(submission).parts)),
                        key=lambda p: (len(p.relative_to(submission).parts), str(p)))
    for stage in STAGES:
        match = next((p for p in candidates if p.name == stage.file), None)
        if match is not None:
            found[stage.name] = match
    return found


def _write_json_atomically(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".results-", dir=path.parent)
    with os.fdopen(handle, "w") as f:
        json.dump(data, f, indent=1)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)  # replaces whatever is there, a planted symlink included


def _load_config(source: Path) -> tuple[dict[str, float], float]:
    try:
        config = json.loads((source / CONFIG).read_text())
    except (OSError, ValueError):
        config = {}
    points = parse_points([f"{k}={v}" for k, v in (config.get("points") or {}).items()
                           if k in {s.name for s in STAGES}])
    return points, float(config.get("timeout") or runner.DEFAULT_TIMEOUT)


def _grade_one(stage: Stage, target: Path, timeout: float) -> StageReport:
    file = target / stage.file
    report = grade_stage(stage, file, timeout, trust.child_user(file))
    if report.status == NOT_STARTED and not file.is_file():
        report.note = f"your submission has no file named {stage.file}: upload it to grade this stage"
    return report


def run(root: Path | None = None) -> dict:
    """Grade $AUTOGRADER_ROOT/submission, write results/results.json, return what was written."""
    started = time.perf_counter()
    root = root or autograder_root()
    source = Path(__file__).resolve().parents[1]
    results_dir = root / "results"
    results_dir.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:  # learner code runs as nobody: keep it away from fixtures and results
        trust.hide_fixtures()
        os.chown(results_dir, 0, 0)
        os.chmod(results_dir, 0o755)
    points, timeout = _load_config(source)
    files = find_stage_files(root / "submission")
    target = Path(tempfile.mkdtemp(prefix="kata-submission-"))
    try:
        os.chmod(target, 0o755)
        stage_files = {f"{name}.py" for name in files}
        helpers = {p for folder in {f.parent for f in files.values()} for p in folder.glob("*.py")
                   if p.is_file() and p.name not in stage_files}
        for path in [*sorted(helpers), *files.values()]:  # helper modules beside the stage files too
            shutil.copyfile(path, target / path.name)
            os.chmod(target / path.name, 0o644)
        with ThreadPoolExecutor(max_workers=len(STAGES)) as pool:
            reports = list(pool.map(lambda s: _grade_one(s, target, timeout), STAGES))
    finally:
        shutil.rmtree(target, ignore_errors=True)
    graded = ", ".join(f"{p.relative_to(root / 'submission')}" for p in files.values()) or "none"
    data = results(reports, points, time.perf_counter() - started, f"Files graded: {graded}")
    _write_json_atomically(results_dir / "results.json", data)
    print(trust.describe())
    print(data["output"])
    print(f"score {data['score']} of {number(sum(points.values()))}")
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m grader.gradescope")
    ap.add_argument("command", choices=["run"], help="run: grade $AUTOGRADER_ROOT/submission")
    ap.parse_args(argv)
    try:
        run()
    except Exception as problem:  # still hand Gradescope a results file that says what went wrong
        _write_json_atomically(autograder_root() / "results" / "results.json", {
            "score": 0, "visibility": VISIBILITY, "stdout_visibility": VISIBILITY, "tests": [],
            "output": f"The autograder itself failed ({type(problem).__name__}: {problem}); "
                      f"please tell your instructor.",
        })
        raise
    return 0


# ---- the bundle -----------------------------------------------------------------------------

def build(out_zip: Path, points: dict[str, float], timeout: float = runner.DEFAULT_TIMEOUT) -> Path:
    out_zip = Path(out_zip).expanduser().resolve()
    out_zip.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kata-gradescope-") as tmp:
        source = release.build(Path(tmp) / "source")
        (source / "setup.sh").write_text(SETUP_SH)
        (source / "run_autograder").write_text(RUN_AUTOGRADER)
        (source / CONFIG).write_text(json.dumps({"points": {k: number(v) for k, v in points.items()},
                                                 "timeout": timeout}, indent=1) + "\n")
        with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as bundle:
            for path in sorted(p for p in source.rglob("*") if p.is_file()):
                name = path.relative_to(source).as_posix()
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                executable = name in ("setup.sh", "run_autograder")
                info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                bundle.writestr(info, path.read_bytes())
    return out_zip


def cmd_gradescope(args) -> int:
    points = parse_points(args.points)
    out = build(Path(args.out_zip), points, args.timeout)
    listing = ", ".join(f"{name} {number(p)}" for name, p in points.items())
    print(f"wrote {out}: upload it as a Gradescope autograder (points: {listing}; "
          f"total {number(sum(points.values()))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
