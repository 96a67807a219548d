"""Name the catalogued mistakes a failing submission's behaviour fits.

Every catalogued mistake was run on the same cases when the expected results were built
(grader/expected.py); what it did on each case is its fingerprint. A mistake is named
only when the submission did the same thing on every case both finished: the same ids,
the same arrays to tolerance, the same crashes, the same inputs changed, the same work.
"""
from __future__ import annotations

from typing import Callable

from grader.cases.common import fingerprint
from grader.report import MistakeMatch


def diagnose(stage: str, cases: list[dict], observations: dict, fingerprints: dict,
             same_behaviour: Callable[[dict, dict], bool]) -> list[MistakeMatch]:
    from grader.mistakes import CATALOGUE

    mine = {case_id: fingerprint(obs) for case_id, obs in observations.items()}  # once, not once per mistake
    matches = []
    for mistake in (m for m in CATALOGUE if m.stage == stage):
        prints = fingerprints.get(stage, {}).get(mistake.slug)
        if prints and _fits(cases, mine, prints, same_behaviour):
            matches.append(MistakeMatch(mistake.slug, mistake.title, mistake.explanation, mistake.hint))
    return matches


def _fits(cases, mine: dict, prints: dict, same_behaviour) -> bool:
    compared = 0
    for case in cases:
        ours, theirs = mine.get(case["id"]), prints.get(case["id"])
        if ours is None or theirs is None:
            continue
        if not same_behaviour(ours, theirs):
            return False
        compared += 1
    return compared > 0
