"""Hints shown one at a time; which were seen is remembered in a small file per checkout."""
from __future__ import annotations

import json
from grader.stages import Stage
from grader.targets import REPO

STATE = REPO / ".kata" / "hints.json"


def _seen() -> dict:
    try:
        data = json.loads(STATE.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def next_hint(stage: Stage) -> str:
    seen = _seen()
    count = int(seen.get(stage.name, 0)) if str(seen.get(stage.name, 0)).isdigit() else 0
    if count >= len(stage.hints):
        where = f" Next, read {stage.notebook}." if stage.notebook else ""
        return (f"No hints left for {stage.name}: you have seen all {len(stage.hints)}.{where} "
                f"`kata mistakes {stage.name}` lists the classic mistakes for this stage; "
                f"`kata reset-hints` starts the hints over.")
    seen[stage.name] = count + 1
    try:
        STATE.parent.mkdir(exist_ok=True)
        STATE.write_text(json.dumps(seen, indent=1))
    except OSError:
        pass  # a read-only checkout still shows hints, it just cannot remember them
    return f"Hint {count + 1} of {len(stage.hints)} for {stage.name}:\n\n{stage.hints[count]}"


def reset() -> None:
    STATE.unlink(missing_ok=True)
