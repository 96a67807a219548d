"""The committed expected results are in sync with solutions/ and the catalogue, and hold no code."""
import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO
from grader import expected
from grader.sandbox import codec


def test_committed_expected_results_are_up_to_date():
    result = subprocess.run([sys.executable, "-m", "grader.expected", "check"], cwd=REPO,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("suite", expected.suite_names())
def test_fixtures_hold_data_not_code(suite):
    text = expected.fixture_path(suite).read_text()
    assert "def " not in text and "import " not in text
    data = expected.load(suite)
    assert data["cases"] and all("expected" in c for c in data["cases"])


def test_the_child_never_sees_expected_results():
    case = expected.load("kv_cache_step")["cases"][0]
    assert set(expected.sent_to_child(case)) <= {"id", "args", "readonly", "counted", "scenario", "params"}


def test_codec_round_trips_arrays_and_refuses_objects():
    data = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": [1, 2.5, None, "x"], "c": np.int64(3)}
    back = codec.loads(codec.dumps(data))
    assert back["a"].dtype == np.float32 and back["a"].shape == (2, 3) and back["b"] == [1, 2.5, None, "x"]
    forged = {"__ndarray__": ["|O", [1], "AAAAAAAAAAA="]}
    with pytest.raises(ValueError):
        codec.from_plain(json.loads(json.dumps(forged)))
    with pytest.raises(ValueError):
        codec.from_plain({"__ndarray__": ["<f8", [4], "AAAAAAAAAAA="]})  # 8 bytes for 4 doubles
