"""`kata watch`: re-grade the current stage on every save, and move on when it passes."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

import watchfiles

from grader import render
from grader.console import console, show
from grader.grading import grade_stage
from grader.report import PASSED
from grader.stages import STAGES

QUIT = {"q", "quit", "exit"}


def _quit_on_q(stop: threading.Event) -> None:
    """Typing q then Enter ends the watch; a closed stdin does not."""
    try:
        for line in sys.stdin:
            if line.strip().lower() in QUIT:
                stop.set()
                return
    except (OSError, ValueError):
        return


def _relevant(change, path: str) -> bool:
    return path.endswith(".py") and "__pycache__" not in path


class Watcher:
    def __init__(self, folder: Path, timeout: float, out=None):
        self.folder, self.timeout, self.out = folder, timeout, out or console()
        self.index = 0

    def grade_current(self):
        stage = STAGES[self.index]
        return grade_stage(stage, self.folder / stage.file, self.timeout)

    def advance_past_passed(self) -> list:
        """Grade from the current stage on; stop at the first that does not pass."""
        passed = []
        while self.index < len(STAGES):
            report = self.grade_current()
            if report.status != PASSED:
                return passed + [report]
            passed.append(report)
            self.index += 1
        return passed

    def screen(self, reports: list) -> None:
        self.out.clear()
        lines = [f"kata watch: {self.folder}   (save a file to re-grade; q + Enter or Ctrl-C quits)", ""]
        for report in reports:
            lines.append(render.stage_text(report))
            if report.status == PASSED:
                lines.append(f"    Stage {report.number} passed.")
        if self.index < len(STAGES):
            stage = STAGES[self.index]
            lines += ["", f"Now: stage {stage.number}, {stage.name}. Edit {self.folder / stage.file} "
                          f"(instructions: {stage.instructions}); stuck? `kata hint {stage.name}`"]
        else:
            lines += ["", "Every stage passes. Well done! `kata bench tiny_decoder` times your cache."]
        show("\n".join(lines), self.out)
        self.out.file.flush()

    def run(self, stop: threading.Event) -> int:
        self.screen(self.advance_past_passed())
        for changes in watchfiles.watch(self.folder, watch_filter=_relevant, stop_event=stop, debounce=300,
                                        raise_interrupt=False):
            if self.index >= len(STAGES):
                self.index = 0  # a change after finishing: check everything again
            self.screen(self.advance_past_passed())
        self.out.print("kata watch: bye")
        return 0


def watch(folder: Path, timeout: float) -> int:
    stop = threading.Event()
    threading.Thread(target=_quit_on_q, args=(stop,), daemon=True).start()
    try:
        return Watcher(folder, timeout).run(stop)
    except KeyboardInterrupt:
        return 0
