"""The learner's loop driven as a learner would: watch mode, reset, plain output without colour."""
import os
import queue
import shutil
import subprocess
import sys
import threading
import time

import pytest

from conftest import REPO, kata

ESCAPE = "\x1b["


class Session:
    """`kata watch` in a subprocess: its output collected as it comes, its stdin ours to type in."""

    def __init__(self, target):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "grader", "watch", "--target", str(target),
                                      "--timeout", "10"], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=env)
        self.lines, self.seen = queue.Queue(), []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)

    def wait_for(self, text, seconds=60):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.seen.append(self.lines.get(timeout=0.2))
            except queue.Empty:
                continue
            if text in self.seen[-1]:
                return
        pytest.fail(f"{text!r} never appeared; output was:\n{''.join(self.seen)[-3000:]}")

    def type(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()


def test_watch_regrades_on_save_moves_on_and_quits_with_q(tmp_path):
    session = Session(tmp_path)
    try:
        session.wait_for("Now: stage 1, kv_cache_step")
        time.sleep(0.5)  # let the watcher start before the save
        shutil.copy(REPO / "tests" / "mistakes" / "kv_cache_step__drops_row_dim.py", tmp_path / "kv_cache_step.py")
        shutil.copy(REPO / "tests" / "mistakes" / "kit_attention_step.py", tmp_path)
        session.wait_for("FAIL output keeps its row")
        shutil.copy(REPO / "solutions" / "kv_cache_step.py", tmp_path / "kv_cache_step.py")
        session.wait_for("Stage 1 passed.")
        session.wait_for("Now: stage 2, causal_lm_generate_no_cache")
        session.type("q")
        assert session.proc.wait(timeout=30) == 0
    finally:
        session.proc.kill()
    assert ESCAPE not in "".join(session.seen)  # a pipe gets plain text


def test_no_color_and_pipes_get_plain_text():
    env = dict(os.environ, NO_COLOR="1", FORCE_COLOR="")
    for result in (kata("check"), kata("list", env=env)):
        assert ESCAPE not in result.stdout
        assert "not started" in result.stdout


def test_a_terminal_gets_colour():
    pytest.importorskip("pty")
    result = subprocess.run(["script", "-qc", f"{sys.executable} -m grader list", "/dev/null"], cwd=REPO,
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0 and "not found" in result.stderr:
        pytest.skip("no `script` command")
    assert ESCAPE in result.stdout


def test_reset_restores_the_stub_and_keeps_a_backup(tmp_path, monkeypatch):
    from grader import reset
    from grader.stages import by_name

    stage = by_name("kv_cache_step")
    exercises = tmp_path / "exercises"
    exercises.mkdir()
    (exercises / stage.file).write_text("# my work in progress\n")
    monkeypatch.setattr(reset, "REPO", tmp_path)
    monkeypatch.setattr(reset, "BACKUPS", tmp_path / "backups")
    monkeypatch.setattr(reset, "pristine_stub", lambda s: (REPO / "exercises" / s.file).read_text())
    assert reset.reset(stage, assume_yes=False, ask=lambda prompt: "n") == "nothing changed"
    message = reset.reset(stage, assume_yes=False, ask=lambda prompt: "y")
    assert "restored" in message
    assert (exercises / stage.file).read_text() == (REPO / "exercises" / stage.file).read_text()
    backups = list((tmp_path / "backups").glob("kv_cache_step-*.py"))
    assert [b.read_text() for b in backups] == ["# my work in progress\n"]


def test_pristine_stub_comes_from_git_history():
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    from grader.reset import pristine_stub
    from grader.stages import by_name

    text = pristine_stub(by_name("kv_cache_step"))
    assert "raise NotImplementedError" in text and "def kv_cache_step(" in text
