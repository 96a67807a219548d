"""`kata bench` and `python -m benchmarks` run and print what they promise. No timing is asserted."""
import json
import subprocess
import sys

from conftest import REPO, kata


def test_bench_tiny_decoder_prints_a_table_and_a_chart():
    result = kata("bench", "tiny_decoder", "--target", "solutions", "--quick")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "sequence length" in out and "no cache ms/step" in out and "cache ms/step" in out
    assert "first token" in out and "never graded" in out
    assert "# no cache, = cache" in out and "|#" in out and "|=" in out


def test_bench_stage_2_compares_with_stage_3():
    result = kata("bench", "causal_lm_generate_no_cache", "--target", "solutions", "--quick")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no cache ms/step" in result.stdout and "whole run of" in result.stdout


def test_bench_of_a_stage_without_a_cache_is_a_usage_error():
    result = kata("bench", "kv_cache_step")
    assert result.returncode == 2
    assert "stages 2 to 4" in result.stderr and "Traceback" not in result.stderr


def test_bench_of_a_stub_says_not_started(tmp_path):
    (tmp_path / "tiny_decoder.py").write_text((REPO / "exercises" / "tiny_decoder.py").read_text())
    result = kata("bench", "tiny_decoder", "--target", str(tmp_path), "--quick")
    assert result.returncode == 1
    assert "not started" in result.stdout and "Traceback" not in result.stdout + result.stderr
    result = kata("bench", "causal_lm_generate_with_kv_cache", "--target", str(tmp_path), "--quick")
    assert result.returncode == 1 and "not started" in result.stdout


def test_benchmarks_quick_writes_json_and_markdown(tmp_path):
    result = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--out", str(tmp_path)], cwd=REPO,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "OPENBLAS_NUM_THREADS=1" in result.stdout
    data = json.loads((tmp_path / "results.json").read_text())
    for key in ("machine", "limits", "grader_latency", "stages_2_3", "tiny_decoder", "batch", "targets"):
        assert key in data, key
    assert data["quick"] is True and data["machine"]["OPENBLAS_NUM_THREADS"] == "1"
    for key in ("all_stages", "one_stage"):
        assert {"median", "min", "max"} <= set(data["grader_latency"][key])
    assert {"growth", "default", "large"} <= set(data["tiny_decoder"])
    assert data["tiny_decoder"]["default"]["max_logit_difference"] <= 1e-12
    assert {"1"} <= set(data["batch"]["throughput"])
    for target in data["targets"]:
        assert isinstance(target["met"], bool) and (target["met"] or target["why"])
    table = (tmp_path / "results.md").read_text()
    assert "| measurement | median | min | max | target | verdict |" in table
