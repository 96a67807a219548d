"""GitHub Classroom: the committed autograding.json matches the registry, and its commands grade."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, kata
from grader import classroom
from grader.stages import STAGES

FIELDS = {"name", "setup", "run", "input", "output", "comparison", "timeout", "points"}


@pytest.fixture(scope="module")
def committed():
    return json.loads((REPO / classroom.CONFIG).read_text())


def test_the_committed_file_is_what_the_registry_gives(committed):
    assert (REPO / classroom.CONFIG).read_text() == classroom.text()
    result = kata("classroom", "--check")
    assert result.returncode == 0, result.stdout


def test_one_test_per_stage_with_its_points(committed):
    tests = committed["tests"]
    assert [t["name"] for t in tests] == [f"{s.number}. {s.name}" for s in STAGES]
    for test, stage in zip(tests, STAGES):
        assert set(test) == FIELDS
        assert test["points"] == stage.points
        assert test["run"] == f"python -m grader check {stage.name}"
        assert "pip install -e ." in test["setup"]
        assert test["comparison"] == "included" and test["output"] == "" and 0 < test["timeout"] <= 60


def test_points_can_be_changed_and_checked(tmp_path):
    changed = classroom.config({"kv_cache_step": 40})
    assert changed["tests"][0]["points"] == 40 and changed["tests"][1]["points"] == STAGES[1].points
    result = kata("classroom", "--check", "--points", "kv_cache_step=40")
    assert result.returncode == 1 and "out of date" in result.stdout


def run_commands(tests, cwd):
    """Run each test's `run` as the Classroom runner would, with `python` being this interpreter."""
    bin_dir = cwd.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    python = bin_dir / "python"
    if not python.exists():  # a wrapper, not a symlink: a symlinked venv python loses its venv
        python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        python.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return [subprocess.run(["bash", "-c", t["run"]], cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=t["timeout"] * 60) for t in tests]


def test_the_commands_grade_a_template_made_by_release(tmp_path):
    release = tmp_path / "template"
    assert kata("release", str(release)).returncode == 0
    tests = json.loads((release / classroom.CONFIG).read_text())["tests"]  # the template carries it
    assert all(done.returncode == 1 for done in run_commands(tests, release))  # the stubs score nothing
    for stage in STAGES:
        shutil.copy(REPO / "solutions" / stage.file, release / "exercises" / stage.file)
    results = run_commands(tests, release)
    assert all(done.returncode == 0 for done in results), [d.stdout for d in results]
