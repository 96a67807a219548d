"""`kata release`: the learner's copy grades exercises/ and reveals no solution."""
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, TESTS, kata
from grader.mistakes import CATALOGUE
from grader.stages import STAGES


@pytest.fixture
def release(tmp_path):
    out = tmp_path / "release"
    result = kata("release", str(out))
    assert result.returncode == 0, result.stderr
    return out


def test_the_release_uses_its_own_grader(release):
    result = kata("check", "--help", cwd=release)
    assert result.returncode == 0
    where = subprocess.run([sys.executable, "-c", "import grader; print(grader.__file__)"], cwd=release,
                           capture_output=True, text=True, timeout=60).stdout.strip()
    assert where.startswith(str(release)), where


def test_the_untouched_stubs_are_not_started(release):
    result = kata("check", cwd=release)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.count("not started") == len(STAGES), result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_a_reference_copied_in_passes(release):
    shutil.copy(REPO / "solutions" / "kv_cache_step.py", release / "exercises" / "kv_cache_step.py")
    result = kata("check", "kv_cache_step", cwd=release)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 of 1 stages passed" in result.stdout


def test_a_catalogued_mistake_fails_and_is_named(release):
    mistake = next(m for m in CATALOGUE if m.stage == "kv_cache_step" and m.slug == "no_scale")
    shutil.copy(REPO / mistake.implementation, release / "exercises" / "kv_cache_step.py")
    shutil.copy(TESTS / "mistakes" / "kit_attention_step.py", release / "exercises")
    result = kata("check", "kv_cache_step", cwd=release)
    assert result.returncode == 1
    assert "failed" in result.stdout and mistake.title in result.stdout, result.stdout


def test_borrowing_the_solutions_package_fails(release):
    shutil.copy(TESTS / "hostile" / "imports_solutions.py", release / "exercises" / "kv_cache_step.py")
    result = kata("check", "kv_cache_step", cwd=release)
    assert result.returncode == 1
    assert "No module named 'solutions'" in result.stdout, result.stdout


def test_grading_the_solutions_is_a_usage_error(release):
    result = kata("check", "--target", "solutions", cwd=release)
    assert result.returncode == 2
    assert "student release" in result.stderr and "Traceback" not in result.stderr


def test_nothing_in_the_release_reveals_a_solution(release):
    assert not (release / "solutions").exists() and not (release / "tests").exists()
    assert (release / "exercises").is_dir() and (release / "grader" / "fixtures").is_dir()
    secrets = [p.read_text().strip() for folder in ("solutions", "tests/correct")
               for p in (REPO / folder).glob("*.py")]
    assert secrets
    for path in (p for p in release.rglob("*") if p.is_file()):
        text = path.read_text(errors="replace")
        assert not any(secret in text for secret in secrets), path


def test_reset_restores_a_stub_without_git_history(release):
    stub = (release / "exercises" / "kv_cache_step.py").read_text()
    (release / "exercises" / "kv_cache_step.py").write_text("# my work\n")
    result = kata("reset", "kv_cache_step", "--yes", cwd=release)
    assert result.returncode == 0, result.stderr
    assert (release / "exercises" / "kv_cache_step.py").read_text() == stub


def test_release_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    result = kata("release", str(tmp_path))
    assert result.returncode == 2 and "not empty" in result.stderr
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_the_release_readme_is_for_learners(tmp_path):
    from grader.release import build

    readme = (build(tmp_path / "copy") / "README.md").read_text()
    assert "## Quickstart" in readme and "kata check" in readme and "## The stages" in readme
    assert "For instructors" not in readme and "## Benchmarks" not in readme and "\npytest " not in readme
