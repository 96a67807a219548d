"""Expected results, made once from solutions/ and committed, so grading never imports them.

    python -m grader.expected build   # rewrite grader/fixtures/*.json from solutions/ and tests/mistakes/
    python -m grader.expected check   # exit 1 if the committed files are out of date

Each suite's file holds its cases (inputs), the reference's observation of each case, and
the observation of every catalogued mistake (its fingerprint, used to name mistakes). The
student release ships these files without solutions/: they reveal outputs, not code.
"""
from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from grader import runner
from grader.cases import load_suite
from grader.cases.common import comparable, fingerprint, same_value
from grader.sandbox import codec
from grader.stages import STAGES

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MISTAKES = REPO / "tests" / "mistakes"
BUILD_TIMEOUT = 120.0


def fixture_path(suite: str) -> Path:
    return FIXTURES / f"{suite}.json"


@lru_cache(maxsize=None)
def load(suite: str) -> dict:
    return codec.from_plain(json.loads(fixture_path(suite).read_text()))


def sent_to_child(case: dict) -> dict:
    """The part of a case learner code may see: never the expected results."""
    return {k: case[k] for k in ("id", "args", "readonly", "counted", "scenario", "params") if k in case}


def observe(file: Path, stage: str, suite_name: str, cases: list[dict], summarise=comparable) -> dict:
    suite = load_suite(suite_name)
    run = runner.run_cases(file, stage, suite.probe, [sent_to_child(c) for c in cases], BUILD_TIMEOUT)
    if run.load_error:
        raise RuntimeError(f"{file} does not load: {run.load_error}")
    return {case_id: summarise(obs) for case_id, obs in run.observations.items()}


def build_suite(suite_name: str) -> dict:
    from grader.mistakes import CATALOGUE

    suite = load_suite(suite_name)
    cases = suite.build_cases()
    stages = [s for s in STAGES if s.cases == suite_name]
    references = [observe(REPO / "solutions" / s.file, s.name, suite_name, cases) for s in stages]
    for case in cases:
        first = references[0].get(case["id"])
        if first is None or "error" in first:
            raise RuntimeError(f"the reference failed on case {case['id']}: {first}")
        for other in references[1:]:
            if not same_value(first["output"], other[case["id"]]["output"]):
                raise RuntimeError(f"the references disagree on case {case['id']}")
        case["expected"] = first
    mistakes = [m for m in CATALOGUE if m.stage in {s.name for s in stages}]
    with ThreadPoolExecutor(max_workers=2) as pool:
        prints = list(pool.map(
            lambda m: observe(MISTAKES / f"{m.stage}__{m.slug}.py", m.stage, suite_name, cases, fingerprint),
            mistakes))
    fingerprints: dict = {s.name: {} for s in stages}
    for mistake, observed in zip(mistakes, prints):
        fingerprints[mistake.stage][mistake.slug] = observed
    return {"suite": suite_name, "cases": cases, "fingerprints": fingerprints}


def suite_names() -> list[str]:
    return sorted({s.cases for s in STAGES})


def encode(data: dict) -> str:
    return json.dumps(codec.to_plain(data), indent=None, separators=(",", ":"), sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    names = argv[1:] or suite_names()
    stale = []
    for name in names:
        text = encode(build_suite(name))
        path = fixture_path(name)
        if command == "build":
            path.parent.mkdir(exist_ok=True)
            path.write_text(text)
            print(f"wrote {path.relative_to(REPO)} ({len(text) // 1024} KiB)")
        elif not path.exists() or not same_fixture(json.loads(path.read_text()), json.loads(text)):
            stale.append(name)
    if stale:
        print(f"out of date: {', '.join(stale)}; run `python -m grader.expected build`")
        return 1
    return 0


def same_fixture(a, b, tol: float = 1e-9) -> bool:
    """Equal structure; numbers equal up to last-bit differences between machines' BLAS."""
    a, b = codec.from_plain(a), codec.from_plain(b)
    return _same(a, b, tol)


def _same(a, b, tol) -> bool:
    import numpy as np

    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], tol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(
            np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True) if a.dtype.kind in "fc" else np.array_equal(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= tol * max(1.0, abs(a)) or (a != a and b != b)
    return a == b


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
