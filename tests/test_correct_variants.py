"""Correct implementations written differently from the references must pass every check."""
import pytest

from conftest import TESTS, grade_many, stage_of
from grader.report import PASSED

VARIANTS = sorted((TESTS / "correct").glob("*__*.py"))


def test_there_are_variants_for_every_stage_with_a_function():
    stages = {stage_of(p).name for p in VARIANTS}
    assert {"kv_cache_step", "causal_lm_generate_no_cache", "causal_lm_generate_with_kv_cache"} <= stages
    assert len(VARIANTS) >= 5


@pytest.fixture(scope="module")
def reports():
    return dict(zip(VARIANTS, grade_many([(stage_of(p).name, p) for p in VARIANTS])))


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_correct_variant_passes(path, reports):
    report = reports[path]
    failed = [f"{c.title}: {c.message}" for c in report.checks if not c.passed]
    assert report.status == PASSED, (report.note, failed)
