"""`kata reset STAGE`: put a stage's stub back, keeping a backup of the learner's file."""
from __future__ import annotations

import shutil
import subprocess
import time

from grader.stages import Stage
from grader.targets import REPO, UsageError

PRISTINE = REPO / ".kata" / "pristine"  # written by `kata release`; a git checkout uses its history
BACKUPS = REPO / ".kata" / "backups"


def pristine_stub(stage: Stage) -> str:
    copy = PRISTINE / stage.file
    if copy.is_file():
        return copy.read_text()
    path = f"exercises/{stage.file}"
    try:
        added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H", "--", path], cwd=REPO,
                               capture_output=True, text=True, timeout=30).stdout.split()
        if added:
            return subprocess.run(["git", "show", f"{added[-1]}:{path}"], cwd=REPO, capture_output=True,
                                  text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        pass
    raise UsageError(f"no original copy of {path} found (neither {PRISTINE} nor git history)")


def reset(stage: Stage, assume_yes: bool, ask=input) -> str:
    original = pristine_stub(stage)
    target = REPO / "exercises" / stage.file
    backup = BACKUPS / f"{stage.name}-{time.strftime('%Y%m%d-%H%M%S')}.py"
    if target.is_file() and target.read_text() == original:
        return f"{target} is already the original stub; nothing to do"
    if not assume_yes:
        answer = ask(f"Restore {target} to the original stub? Your version is kept in {backup}. [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            return "nothing changed"
    if target.is_file():
        BACKUPS.mkdir(parents=True, exist_ok=True)
        shutil.copy2(target, backup)
    target.write_text(original)
    return f"restored {target}" + (f"; your version is in {backup}" if backup.exists() else "")
