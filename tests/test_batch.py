"""`kata grade-batch`: a class graded in parallel; a hanging submission costs only its own time."""
import csv
import json
import shutil
import time

import pytest

from conftest import REPO, TESTS, kata
from grader.stages import STAGES

STEP = STAGES[0]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    subs = tmp_path_factory.mktemp("submissions")
    for learner in ("alice", "bob", "carol", "dave"):
        (subs / learner).mkdir()
    shutil.copy(REPO / "solutions" / STEP.file, subs / "alice")  # correct
    shutil.copy(TESTS / "mistakes" / "kv_cache_step__no_scale.py", subs / "bob" / STEP.file)  # wrong
    shutil.copy(TESTS / "mistakes" / "kit_attention_step.py", subs / "bob")
    shutil.copy(TESTS / "hostile" / "hangs.py", subs / "carol" / STEP.file)  # hangs
    (subs / "dave" / "exercises").mkdir()  # a clone of the learner's repository
    shutil.copy(REPO / "solutions" / STEP.file, subs / "dave" / "exercises")
    out = tmp_path_factory.mktemp("report")
    started = time.perf_counter()
    result = kata("grade-batch", str(subs), "--out", str(out), "--timeout", "2", "--workers", "2")
    return result, out, time.perf_counter() - started, subs


def rows(out):
    with open(out / "grades.csv", newline="") as f:
        return {row["learner"]: row for row in csv.DictReader(f)}


def test_the_batch_finishes_and_writes_a_row_per_learner(batch):
    result, out, seconds, _ = batch
    assert result.returncode == 0, result.stderr
    assert seconds < 60
    with open(out / "grades.csv", newline="") as f:
        header = next(csv.reader(f))
    assert header == ["learner", *(s.name for s in STAGES), "total"]
    assert set(rows(out)) == {"alice", "bob", "carol", "dave"}


def test_scores(batch):
    table = rows(batch[1])
    assert float(table["alice"][STEP.name]) == STEP.points == float(table["alice"]["total"])
    assert float(table["dave"]["total"]) == STEP.points  # graded from dave/exercises/
    assert 0 <= float(table["bob"][STEP.name]) < STEP.points
    assert float(table["carol"][STEP.name]) == 0 == float(table["carol"]["total"])
    for row in table.values():
        assert all(float(row[s.name]) == 0 for s in STAGES[1:])  # not started


def test_json_reports_are_what_kata_check_writes(batch, tmp_path):
    _, out, _, subs = batch
    carol = json.loads((out / "carol.json").read_text())
    step = carol["stages"][0]
    assert step["status"] == "failed" and "still running after 2 s" in json.dumps(step)
    mine = json.loads((out / "alice.json").read_text())
    result = kata("check", "--target", str(subs / "alice"), "--json", str(tmp_path / "check.json"))
    assert result.returncode == 1
    check = json.loads((tmp_path / "check.json").read_text())
    assert set(mine) == set(check) and mine["target"] == check["target"]
    for a, b in zip(mine["stages"], check["stages"]):
        a.pop("seconds"), b.pop("seconds")
        assert a == b
    assert [s["status"] for s in mine["stages"]] == ["passed"] + ["not started"] * (len(STAGES) - 1)


def test_a_missing_folder_is_a_usage_error(tmp_path):
    result = kata("grade-batch", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "not a folder" in result.stderr
