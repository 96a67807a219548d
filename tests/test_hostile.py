"""Submissions that hang, crash, exit, forge or patch: each fails, and the run always finishes."""
import shutil

import pytest

from conftest import REPO, TESTS, grade, grade_many, kata
from grader.report import FAILED

HOSTILE = TESTS / "hostile"
TIMEOUT = 3.0
EXPECTED_NOTE = {  # what the learner must be told, per file
    "hangs": "still running after",
    "exits_process": "ended the grading process",
    "segfaults": "ended the grading process",
    "calls_sys_exit": "raised SystemExit",
    "syntax_error": "could not be loaded",
    "no_function": "no function named kv_cache_step",
    "imports_solutions": "No module named 'solutions'",
    "allocates_too_much": "MemoryError",
}


@pytest.fixture(scope="module")
def reports():
    files = sorted(HOSTILE.glob("*.py"))
    return {p.stem: r for p, r in zip(files, grade_many([("kv_cache_step", p) for p in files], TIMEOUT))}


def test_every_hostile_file_fails(reports):
    assert len(reports) >= 10
    for name, report in reports.items():
        assert report.status == FAILED, (name, report.status, report.note)


@pytest.mark.parametrize("name", sorted(EXPECTED_NOTE))
def test_the_learner_is_told_what_happened(name, reports):
    report = reports[name]
    text = report.note + "\n".join(c.message for c in report.checks)
    assert EXPECTED_NOTE[name] in text, text[:2000]


def test_a_hang_costs_only_its_time_limit():
    import time

    start = time.perf_counter()
    grade("kv_cache_step", HOSTILE / "hangs.py", 2.0)
    assert time.perf_counter() - start < 10


def test_printed_text_is_kept_short_and_apart(reports):
    assert len(reports["floods_output"].printed) <= 2000
    assert "4 of 4 stages passed" in reports["prints_fake_summary"].printed


def test_a_hostile_stage_does_not_stop_the_others(tmp_path):
    shutil.copy(HOSTILE / "exits_process.py", tmp_path / "kv_cache_step.py")
    shutil.copy(REPO / "solutions" / "causal_lm_generate_no_cache.py", tmp_path)
    result = kata("check", "kv_cache_step", "causal_lm_generate_no_cache", "--target", str(tmp_path))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any("kv_cache_step" in line and "failed" in line for line in lines), result.stdout
    assert any("causal_lm_generate_no_cache" in line and "passed" in line for line in lines), result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_fake_summary_does_not_change_the_exit_status(tmp_path):
    shutil.copy(HOSTILE / "prints_fake_summary.py", tmp_path / "kv_cache_step.py")
    result = kata("check", "kv_cache_step", "--target", str(tmp_path))
    assert result.returncode == 1
    assert "0 of 1 stages passed" in result.stdout
