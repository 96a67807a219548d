"""Load the reference solutions by path, as the grader's child process does (never as a package)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOLUTIONS = REPO / "solutions"


def load(path: Path, name: str | None = None):
    path = Path(path)
    spec = importlib.util.spec_from_file_location(name or f"_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference(stage_file: str):
    return load(SOLUTIONS / stage_file, f"_reference_{Path(stage_file).stem}")
