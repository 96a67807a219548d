"""The command line as a learner meets it: list, check, hint, exit codes, JSON."""
import json
import shutil

from conftest import REPO, TESTS, kata
from grader.stages import STAGES


def test_unknown_stage_and_missing_target_are_usage_errors(tmp_path):
    result = kata("check", "no_such_stage")
    assert result.returncode == 2 and "unknown stage" in result.stderr
    result = kata("check", "--target", str(tmp_path / "nowhere"))
    assert result.returncode == 2 and "not a folder" in result.stderr
    assert "Traceback" not in result.stderr


def test_list_marks_the_current_stage(tmp_path):
    shutil.copy(REPO / "solutions" / "kv_cache_step.py", tmp_path)
    result = kata("list", "--target", str(tmp_path))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("   ") and "kv_cache_step" in lines[0] and "passed" in lines[0]
    assert lines[1].startswith("->") and STAGES[1].name in lines[1] and "not started" in lines[1]


def test_a_wrong_submission_shows_the_check_the_difference_and_the_mistake(tmp_path):
    shutil.copy(TESTS / "mistakes" / "kv_cache_step__scale_by_d.py", tmp_path / "kv_cache_step.py")
    shutil.copy(TESTS / "mistakes" / "kit_attention_step.py", tmp_path)
    result = kata("check", "kv_cache_step", "--target", str(tmp_path))
    assert result.returncode == 1
    out = result.stdout
    assert "FAIL output matches the reference across sizes" in out
    assert "expected" in out and "received" in out and "largest error" in out
    assert "This looks like a known mistake" in out and "kata hint kv_cache_step" in out


def test_json_report_has_every_check(tmp_path):
    report = tmp_path / "report.json"
    result = kata("check", "--target", "solutions", "--json", str(report))
    assert result.returncode == 0
    data = json.loads(report.read_text())
    assert [s["stage"] for s in data["stages"]] == [s.name for s in STAGES]
    assert all(s["status"] == "passed" and s["checks"] for s in data["stages"])
    assert {"name", "title", "passed", "message"} <= set(data["stages"][0]["checks"][0])


def test_hints_come_one_at_a_time_then_say_none_are_left(tmp_path):
    from grader import hints

    stage = STAGES[0]
    saved = hints.STATE
    hints.STATE = tmp_path / "hints.json"
    try:
        shown = [hints.next_hint(stage) for _ in range(len(stage.hints) + 1)]
    finally:
        hints.STATE = saved
    assert shown[0].startswith(f"Hint 1 of {len(stage.hints)}") and stage.hints[0] in shown[0]
    assert shown[1].startswith("Hint 2") and stage.hints[1] in shown[1]
    assert "No hints left" in shown[-1]


def test_pytest_face_of_the_graders_runs_on_the_solutions():
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "pytest", "grader", "--target", "solutions", "-q", "-p",
                             "no:cacheprovider"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout.splitlines()[-1]


def test_an_error_on_every_case_is_said_once(tmp_path):
    (tmp_path / "kv_cache_step.py").write_text(
        "import numpy as np\n\n\ndef kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):\n"
        "    return new_q @ cached_K.T / np.sqrt(D)\n")
    result = kata("check", "kv_cache_step", "--target", str(tmp_path))
    assert result.returncode == 1
    assert result.stdout.count("name 'D' is not defined") == 1, result.stdout
    assert "line 5 of kv_cache_step.py" in result.stdout and "Fix the error above first." in result.stdout
