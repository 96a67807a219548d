"""The catalogue of learner mistakes: each is rejected by its stage's grader, and named."""
import pytest

from conftest import TESTS, grade_many
from grader.mistakes import CATALOGUE
from grader.report import FAILED
from grader.stages import STAGES

MISTAKES = TESTS / "mistakes"


def impl(mistake):
    return MISTAKES / f"{mistake.stage}__{mistake.slug}.py"


def test_catalogue_and_files_match():
    listed = {impl(m).name for m in CATALOGUE}
    on_disk = {p.name for p in MISTAKES.glob("*__*.py")}
    assert listed == on_disk, (sorted(listed - on_disk), sorted(on_disk - listed))
    assert len({(m.stage, m.slug) for m in CATALOGUE}) == len(CATALOGUE)
    assert len([m for m in CATALOGUE if m.stage in {s.name for s in STAGES[:3]}]) >= 25


@pytest.mark.parametrize("mistake", CATALOGUE, ids=lambda m: f"{m.stage}-{m.slug}")
def test_entry_is_complete(mistake):
    stage = next(s for s in STAGES if s.name == mistake.stage)
    assert 1 <= mistake.hint <= len(stage.hints)
    assert mistake.title and len(mistake.explanation.split()) >= 15


@pytest.fixture(scope="module")
def reports():
    return dict(zip(CATALOGUE, grade_many([(m.stage, impl(m)) for m in CATALOGUE])))


@pytest.mark.parametrize("mistake", CATALOGUE, ids=lambda m: f"{m.stage}-{m.slug}")
def test_mistake_is_rejected_by_name(mistake, reports):
    report = reports[mistake]
    assert report.status == FAILED, f"{mistake.slug} passed its grader"
    named = [m.slug for m in report.mistakes]
    assert mistake.slug in named, f"{mistake.slug} failed {[c.name for c in report.checks if not c.passed]} " \
                                  f"but the report named {named}"


def test_people_can_read_the_catalogue():
    from conftest import REPO, kata
    from grader import catalogue_page

    result = kata("mistakes", "kv_cache_step")
    assert result.returncode == 0
    titles = [m.title for m in CATALOGUE if m.stage == "kv_cache_step"]
    assert all(title in result.stdout for title in titles)
    page = (REPO / catalogue_page.PAGE).read_text()
    assert page == catalogue_page.markdown() + "\n", "docs/mistakes.md is stale: kata mistakes --markdown > docs/mistakes.md"
