"""Shared helpers: grade files through the real runner, many at once."""
from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import pytest

from grader.grading import grade_stage
from grader.report import StageReport
from grader.stages import STAGES, by_name

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"


def stage_of(path: Path):
    """tests/<kind>/<stage>__<variant>.py belongs to <stage>."""
    return by_name(path.name.split("__")[0])


@lru_cache(maxsize=None)
def grade(stage_name: str, path: Path, timeout: float = 30.0) -> StageReport:
    return grade_stage(by_name(stage_name), Path(path), timeout)


def grade_many(jobs: list[tuple[str, Path]], timeout: float = 30.0) -> list[StageReport]:
    """Grade in parallel (each grading is its own child process) and remember the results."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda job: grade(job[0], Path(job[1]), timeout), jobs))


def kata(*args: str, cwd: Path = REPO, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)


@pytest.fixture(scope="session")
def all_stages():
    return list(STAGES)
