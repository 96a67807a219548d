"""`kata release OUT_DIR`: the learner's copy of the kata, with nothing that reveals a solution.

The copy holds the stubs and their instructions (exercises/), the whole grader with its
committed fixtures (inputs, the reference's outputs and the mistakes' fingerprints: results,
never code), the notebooks, docs/, a learners' README.md, pyproject.toml, the GitHub Classroom configuration and
.kata/pristine/ (the original stubs, for `kata reset`).
It leaves out solutions/ and tests/ (tests/correct/ holds correct implementations). In the
copy `kata check` grades exercises/ as usual and `kata check --target solutions` is a usage error.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from grader.targets import REPO, UsageError

FOLDERS = ("exercises", "grader", "notebooks", "docs", ".github/classroom")  # copied when present
FILES = ("pyproject.toml", ".gitignore")
TEACHERS_ONLY = ("## For instructors", "## Benchmarks", "## Layout", "## Developing")  # README sections left out
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", ".pytest_cache", "*.egg-info")
SECRET = ("solutions", "tests/correct")  # no file of the release may contain one of these files' text


def build(out: Path, repo: Path = REPO) -> Path:
    out = Path(out).expanduser().resolve()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"{out} already exists and is not empty: choose a new or empty folder")
    for folder in FOLDERS:
        if (repo / folder).is_dir() and out.is_relative_to((repo / folder).resolve()):
            raise UsageError(f"{out} is inside {folder}/, which the release copies: choose another folder")
    if not (repo / "exercises").is_dir() or not (repo / "grader").is_dir():
        raise UsageError(f"{repo} has no exercises/ or grader/ folder to release")
    out.mkdir(parents=True, exist_ok=True)
    for folder in FOLDERS:
        if (repo / folder).is_dir():
            shutil.copytree(repo / folder, out / folder, ignore=JUNK)
    for name in FILES:
        if (repo / name).is_file():
            shutil.copy2(repo / name, out / name)
    (out / "README.md").write_text(learners_readme((repo / "README.md").read_text()))
    pristine = out / ".kata" / "pristine"  # what `kata reset STAGE` restores in a copy without git history
    pristine.mkdir(parents=True)
    for stub in sorted((out / "exercises").glob("*.py")):
        shutil.copy2(stub, pristine / stub.name)
    leaks = revealing_files(out, repo)
    if leaks:
        shutil.rmtree(out, ignore_errors=True)
        raise RuntimeError("the release would contain solution code, so it was not written: "
                           + ", ".join(str(p) for p in leaks))
    return out


def learners_readme(text: str) -> str:
    """The README without the sections about instructors' tools, benchmarks and the project's own tests."""
    kept, keep = [], True
    for line in text.splitlines():
        if line.startswith("## "):
            keep = not line.startswith(TEACHERS_ONLY)
        if keep and not line.startswith("pytest "):  # the release has no tests/ to run
            kept.append(line)
    return "\n".join(kept).rstrip() + "\n"


def _secrets(repo: Path) -> list[str]:
    texts = []
    for folder in SECRET:
        for path in sorted((repo / folder).glob("*.py")) if (repo / folder).is_dir() else []:
            text = path.read_text(errors="replace").strip()
            if text:
                texts.append(text)
    return texts


def revealing_files(out: Path, repo: Path = REPO) -> list[Path]:
    """Files of `out` that hold the whole text of a reference or correct implementation."""
    secrets = _secrets(repo)
    found = []
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        text = path.read_text(errors="replace")
        if any(secret in text for secret in secrets):
            found.append(path.relative_to(out))
    return found


def cmd_release(args) -> int:
    out = build(Path(args.out_dir))
    print(f"wrote the learner's copy to {out}: exercises/, grader/ and the instructions, without "
          f"solutions/ or tests/. In it, `kata check` grades exercises/.")
    return 0
