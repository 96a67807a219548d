"""Where graded files live: `exercises`, `solutions`, or any folder a learner points at."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NAMED = ("exercises", "solutions")


class UsageError(Exception):
    """A command-line mistake: exit status 2."""


def resolve(target: str) -> Path:
    if target in NAMED:  # the kata's own folders, wherever the command runs from
        path = REPO / target
        if not path.is_dir():
            if target == "solutions":
                raise UsageError("this copy of the kata has no solutions/ folder (it is a student release); "
                                 "grade your own work with `kata check`")
            raise UsageError(f"no {target}/ folder in {REPO}")
        return path
    path = Path(target).expanduser()
    if not path.is_dir():
        raise UsageError(f"target {target!r} is not a folder")
    return path.resolve()
