"""`kata classroom`: write .github/classroom/autograding.json from the stage registry.

GitHub Classroom's autograding reads that file in a template repository (make the template
from `kata release`): one test per stage, worth the stage's registry points (25 by default),
that installs the kata (`setup`) and runs `python -m grader check <stage>`, which exits 0 only
when the stage passes. `comparison: included` with an empty `output` makes the exit status
decide; `timeout` is in minutes, as GitHub Classroom counts it. `kata classroom --check`
exits 1 when the committed file differs from what the registry gives.
"""
from __future__ import annotations

import json
from pathlib import Path

from grader.stages import STAGES
from grader.targets import REPO

CONFIG = Path(".github") / "classroom" / "autograding.json"
SETUP = "python -m pip install -e ."
TIMEOUT_MINUTES = 10


def config(points: dict[str, float] | None = None) -> dict:
    def worth(stage) -> int | float:
        value = (points or {}).get(stage.name, stage.points)
        return int(value) if float(value).is_integer() else value

    return {"tests": [{
        "name": f"{stage.number}. {stage.name}",
        "setup": SETUP,
        "run": f"python -m grader check {stage.name}",
        "input": "",
        "output": "",
        "comparison": "included",
        "timeout": TIMEOUT_MINUTES,
        "points": worth(stage),
    } for stage in STAGES]}


def text(points: dict[str, float] | None = None) -> str:
    return json.dumps(config(points), indent=2) + "\n"


def cmd_classroom(args) -> int:
    from grader.scoring import parse_points

    path = REPO / CONFIG
    points = parse_points(args.points) if args.points else None
    wanted = text(points)
    if args.check:
        current = path.read_text() if path.is_file() else ""
        if current != wanted:
            print(f"{CONFIG} is out of date: run `kata classroom` to rewrite it")
            return 1
        print(f"{CONFIG} matches the stages")
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(wanted)
    print(f"wrote {CONFIG}: {len(STAGES)} tests, {sum(t['points'] for t in config(points)['tests'])} points "
          f"(make the GitHub Classroom template from `kata release`)")
    return 0
