"""Print reports: colour on a terminal, plain text for pipes, CI and NO_COLOR (rich decides)."""
from __future__ import annotations

import re
import sys

from rich.console import Console
from rich.text import Text

STYLES = [  # (pattern at the start of a line, style)
    (re.compile(r"\[PASS\]"), "bold green"),
    (re.compile(r"\[FAIL\]"), "bold red"),
    (re.compile(r"\[TODO\]"), "bold yellow"),
    (re.compile(r"\s+FAIL "), "red"),
    (re.compile(r"\s+ok "), "green"),
    (re.compile(r"\s+(This looks like|This fits each)"), "bold magenta"),
    (re.compile(r"\s+\* "), "magenta"),
    (re.compile(r"\s+Next: |\s*Stuck\? |->"), "bold cyan"),
]


def console(file=None) -> Console:
    return Console(file=file or sys.stdout, highlight=False, soft_wrap=True, emoji=False)


def styled(text: str) -> Text:
    out = Text()
    for line in text.splitlines(keepends=True):
        style = next((s for pattern, s in STYLES if pattern.match(line)), None)
        out.append(line, style=style)
    return out


def show(text: str, out: Console | None = None) -> None:
    (out or console()).print(styled(text), markup=False)
