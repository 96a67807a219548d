"""`kata gradescope`: the bundle's run_autograder in a simulated /autograder layout."""
import functools
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, TESTS, kata
from grader.scoring import parse_points
from grader.stages import STAGES
from grader.targets import UsageError

POINTS = {s.name: float(s.points) for s in STAGES} | {"kv_cache_step": 40.0}
STATUSES = {"passed", "failed"}
VISIBILITIES = {"visible", "hidden", "after_due_date", "after_published"}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    result = kata("gradescope", str(out), "--points", "kv_cache_step=40", "--timeout", "5")
    assert result.returncode == 0, result.stderr
    return out


def autograder(bundle: Path, root: Path, files: dict, python: str = sys.executable) -> dict:
    """Lay out `root` as Gradescope does, run run_autograder, return results.json."""
    with zipfile.ZipFile(bundle) as z:
        z.extractall(root / "source")
        for info in z.infolist():
            os.chmod(root / "source" / info.filename, (info.external_attr >> 16) & 0o777)
    for name, source in files.items():  # the learner's upload, one file in a subfolder
        where = root / "submission" / ("nested" if name in ("kv_cache_step.py", "kit_attention_step.py") else "")
        where.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            shutil.copy(source, where / name)
        else:
            (where / name).write_text(source)
    (root / "results").mkdir(exist_ok=True)
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), KATA_PYTHON=python)
    done = subprocess.run(["bash", str(root / "source" / "run_autograder")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((root / "results" / "results.json").read_text())


def stage_score(results: dict, stage) -> float:
    return sum(t["score"] for t in results["tests"] if t["name"].startswith(f"{stage.number}. {stage.name}:"))


def test_the_bundle_follows_the_specification(bundle):
    with zipfile.ZipFile(bundle) as z:
        names = set(z.namelist())
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in z.infolist()}
    assert {"setup.sh", "run_autograder", "gradescope.json", "grader/cli.py"} <= names
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert not any(n.startswith(("solutions/", "tests/")) for n in names)


def test_results_json_has_the_fields_gradescope_reads(bundle, tmp_path):
    results = autograder(bundle, tmp_path, {"kv_cache_step.py": REPO / "solutions" / "kv_cache_step.py"})
    assert isinstance(results["score"], (int, float))
    assert results["visibility"] in VISIBILITIES and results["stdout_visibility"] == "visible"
    assert isinstance(results["output"], str) and "kv_cache_step" in results["output"]
    for test in results["tests"]:
        assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(test)
        assert test["status"] in STATUSES and test["visibility"] == "visible"
        assert 0 <= test["score"] <= test["max_score"]
    for stage in STAGES:
        mine = [t for t in results["tests"] if t["name"].startswith(f"{stage.number}. {stage.name}:")]
        assert mine and sum(t["max_score"] for t in mine) == pytest.approx(POINTS[stage.name], abs=1e-2)
    assert results["score"] == 40  # the nested kv_cache_step.py was found; the other stages not started
    assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]), abs=1e-2)
    missing = next(t for t in results["tests"] if t["name"] == f"2. {STAGES[1].name}: not started")
    assert missing["score"] == 0 and f"no file named {STAGES[1].file}" in missing["output"]


def test_a_correct_submission_gets_full_marks(bundle, tmp_path):
    files = {s.file: REPO / "solutions" / s.file for s in STAGES}
    results = autograder(bundle, tmp_path, files)
    assert results["score"] == sum(POINTS.values())
    assert all(t["status"] == "passed" for t in results["tests"])


def test_a_failing_check_shows_what_the_learner_sees(bundle, tmp_path):
    files = {"kv_cache_step.py": TESTS / "mistakes" / "kv_cache_step__no_scale.py",
             "kit_attention_step.py": TESTS / "mistakes" / "kit_attention_step.py"}  # a helper beside it
    results = autograder(bundle, tmp_path, files)
    failed = [t for t in results["tests"] if t["name"].startswith("1. ") and t["status"] == "failed"]
    assert failed and all(t["output"] for t in failed)
    assert 0 < stage_score(results, STAGES[0]) < 40
    assert "Scores never divided by sqrt(D)" in results["output"]


@pytest.mark.parametrize("hostile", ["exits_process", "writes_results_file", "forges_results",
                                     "patches_numpy", "hangs"])
def test_hostile_submissions_get_nothing_for_their_stage(bundle, tmp_path, hostile):
    files = {"kv_cache_step.py": TESTS / "hostile" / f"{hostile}.py",
             STAGES[1].file: REPO / "solutions" / STAGES[1].file}
    results = autograder(bundle, tmp_path, files)
    assert stage_score(results, STAGES[0]) == 0
    assert stage_score(results, STAGES[1]) == pytest.approx(POINTS[STAGES[1].name])  # still graded
    assert results["score"] == POINTS[STAGES[1].name]
    assert all(t["max_score"] < 1000 and t["name"] != "everything" for t in results["tests"])  # not forged


def test_a_fake_summary_buys_nothing(bundle, tmp_path):
    """The same function without its prints earns exactly the same: printing 'passed' changes nothing."""
    faker = TESTS / "hostile" / "prints_fake_summary.py"
    quiet = "\n".join(line for line in faker.read_text().splitlines() if "print(" not in line)
    loud = autograder(bundle, tmp_path / "loud", {"kv_cache_step.py": faker})
    plain = autograder(bundle, tmp_path / "plain", {"kv_cache_step.py": quiet})
    assert "4 of 4 stages passed" in loud["output"]  # shown as the learner's own print, never graded
    assert [(t["name"], t["score"]) for t in loud["tests"]] == [(t["name"], t["score"]) for t in plain["tests"]]
    assert loud["score"] == plain["score"] < 40
    assert any(t["status"] == "failed" for t in loud["tests"] if t["name"].startswith("1. "))


def test_doing_nothing_earns_nothing(bundle, tmp_path):
    """`return {}` passes the checks that only guard the inputs, but earns no points with them."""
    nothing = "def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):\n    return {}\n"
    results = autograder(bundle, tmp_path, {"kv_cache_step.py": nothing})
    mine = [t for t in results["tests"] if t["name"].startswith("1. ")]
    assert any(t["status"] == "passed" for t in mine)
    assert stage_score(results, STAGES[0]) == 0 and results["score"] == 0


def test_points_are_checked():
    assert parse_points([]) == {s.name: float(s.points) for s in STAGES}
    assert parse_points(["kv_cache_step=7.5"])["kv_cache_step"] == 7.5
    for bad in (["nope=3"], ["kv_cache_step"], ["kv_cache_step=x"], ["kv_cache_step=-1"]):
        with pytest.raises(UsageError):
            parse_points(bad)
    result = kata("gradescope", "never.zip", "--points", "nope=3")
    assert result.returncode == 2 and "--points" in result.stderr


@functools.lru_cache(maxsize=None)
def python_for_nobody():
    """A Python with numpy that the user nobody can run (root only), else None."""
    if os.geteuid() != 0:
        return None
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            ok = subprocess.run([python, "-c", "import numpy, rich"], capture_output=True, timeout=60)
            nobody = pwd.getpwnam("nobody")
            child = subprocess.run([python, "-I", "-c", "import numpy"], user=nobody.pw_uid,
                                   group=nobody.pw_gid, capture_output=True, timeout=60)
        except (OSError, KeyError, ValueError, subprocess.SubprocessError):
            continue
        if ok.returncode == 0 and child.returncode == 0:
            return python
    return None


@pytest.mark.skipif(python_for_nobody() is None,
                    reason="needs root and a Python with numpy that the user nobody can run")
def test_as_root_learner_code_runs_as_nobody(bundle):
    root = Path(tempfile.mkdtemp(prefix="kata-autograder-"))  # under /tmp, reachable by nobody
    try:
        os.chmod(root, 0o755)
        spy = ("import os, sys\n"
               f"def {STAGES[1].name}(*args, **kwargs):\n"
               f"    for name in {sorted({st.cases for st in STAGES})!r}:\n"
               "        path = os.environ['AUTOGRADER_ROOT'] + '/source/grader/fixtures/' + name + '.json'\n"
               "        try:\n"
               "            open(path).read(1); print('READ', path)\n"
               "        except OSError as problem:\n"
               "            print('NOREAD', problem)\n"
               "    print('uid', os.getuid()); sys.stdout.flush(); os._exit(0)\n")
        files = {"kv_cache_step.py": TESTS / "hostile" / "writes_results_file.py", STAGES[1].file: spy,
                 STAGES[2].file: REPO / "solutions" / STAGES[2].file}
        results = autograder(bundle, root, files, python_for_nobody())
        assert "could not forge results.json" in results["output"]
        assert "NOREAD" in results["output"] and "READ /" not in results["output"]
        assert "uid 65534" in results["output"]
        assert stage_score(results, STAGES[0]) == 0 and stage_score(results, STAGES[1]) < POINTS[STAGES[1].name]
        assert stage_score(results, STAGES[2]) == pytest.approx(POINTS[STAGES[2].name])  # nobody reads the file, imports numpy
    finally:
        shutil.rmtree(root, ignore_errors=True)
