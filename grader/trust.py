"""Who runs learner code: the one decision every route (check, grade-batch, Gradescope) shares.

When the grader runs as root (Gradescope does, so may a container), the child process that
runs learner code drops to the unprivileged user `nobody`, so it cannot read files only root
can read (the Gradescope bundle makes the fixtures 0600) nor write the results file. That
needs the system to allow it: `nobody` must exist and must be able to start this Python,
import numpy and read the grader's sandbox. Otherwise the child runs as the grader's own user,
as it always does for an ordinary (non-root) user, and still only in a child process.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

UNPRIVILEGED = "nobody"
SANDBOX = Path(__file__).resolve().parent / "sandbox"
_probe_lock = threading.Lock()
_probed: dict = {}


def child_user(path: Path | None = None) -> tuple[int, int] | None:
    """(uid, gid) to run learner code as, or None to run it as the current user.

    With `path`, also require that the user can read that file (the learner's stage file):
    a file it cannot read is graded as the current user rather than failing for no fault of
    the learner (routes that must drop privileges stage a readable copy, see readable_copy).
    """
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    try:
        import pwd

        entry = pwd.getpwnam(UNPRIVILEGED)
    except (ImportError, KeyError):
        return None
    user = (entry.pw_uid, entry.pw_gid)
    if not _can_run(user):
        return None
    if path is not None and not can_read(Path(path), user):
        return None
    return user


def _can_run(user: tuple[int, int]) -> bool:
    """Can `user` start this interpreter, import numpy and load the sandbox? Asked once per process."""
    with _probe_lock:
        if user not in _probed:
            code = "import sys; sys.path.insert(0, sys.argv[1]); import numpy, codec, probes"
            try:
                done = subprocess.run([sys.executable, "-I", "-B", "-c", code, str(SANDBOX)],
                                      user=user[0], group=user[1], extra_groups=[], cwd="/",
                                      stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
                _probed[user] = done.returncode == 0
            except (OSError, subprocess.SubprocessError):
                _probed[user] = False
        return _probed[user]


def _groups(user: tuple[int, int]) -> set[int]:
    # subprocess keeps the parent's supplementary groups unless told otherwise: count them too
    return {user[1], *os.getgroups()}


def _allowed(path: Path, user: tuple[int, int], bits: tuple[int, int, int]) -> bool:
    st = os.stat(path)
    if st.st_uid == user[0]:
        return bool(st.st_mode & bits[0])
    if st.st_gid in _groups(user):
        return bool(st.st_mode & bits[1])
    return bool(st.st_mode & bits[2])


def can_read(path: Path, user: tuple[int, int]) -> bool:
    """Can `user` open `path` for reading (every folder above it searchable, the file readable)?"""
    try:
        path = path.resolve()
        if not path.is_file():
            return False
        searchable = (stat.S_IXUSR, stat.S_IXGRP, stat.S_IXOTH)
        if not all(_allowed(folder, user, searchable) for folder in path.parents):
            return False
        return _allowed(path, user, (stat.S_IRUSR, stat.S_IRGRP, stat.S_IROTH))
    except OSError:
        return False


@contextlib.contextmanager
def readable_copy(folder: Path):
    """Yield a folder the child user can read that holds the target's Python files.

    When no user switch happens, or it can already read everything, that is `folder` itself;
    otherwise a world-readable temporary copy of the folder's top-level .py files (the stage
    files and any helper modules beside them), removed afterwards.
    """
    folder = Path(folder)
    files = sorted(p for p in folder.glob("*.py") if p.is_file()) if folder.is_dir() else []
    user = child_user()
    if user is None or all(can_read(p, user) for p in files):
        yield folder
        return
    staged = Path(tempfile.mkdtemp(prefix="kata-target-"))
    try:
        os.chmod(staged, 0o755)
        for source in files:
            shutil.copyfile(source, staged / source.name)
            os.chmod(staged / source.name, 0o644)
        yield staged
    finally:
        shutil.rmtree(staged, ignore_errors=True)


def exposed_fixtures() -> list[Path]:
    """The grader's fixture files the child user could read (none when there is no user switch)."""
    user = child_user()
    fixtures = Path(__file__).resolve().parent / "fixtures"
    return [] if user is None else [p for p in sorted(fixtures.glob("*.json")) if can_read(p, user)]


def hide_fixtures() -> None:
    """Make the fixtures readable by root alone (0700 folder, 0600 files): for a grading-only copy."""
    fixtures = Path(__file__).resolve().parent / "fixtures"
    for path in fixtures.glob("*.json"):
        os.chmod(path, 0o600)
    os.chmod(fixtures, 0o700)


def describe() -> str:
    """One line for logs: who runs learner code here, and why."""
    user = child_user()
    if user is not None:
        return f"learner code runs as the unprivileged user {UNPRIVILEGED!r} (uid {user[0]})"
    if os.geteuid() == 0:
        return (f"learner code runs as root: the user {UNPRIVILEGED!r} is missing or cannot run "
                f"{sys.executable} with numpy (install Python and numpy where every user can read them)")
    return f"learner code runs as the current user (uid {os.geteuid()}), in a child process"
