"""Each check of each stage as one pytest test; the same grading `kata check` runs."""
from functools import lru_cache

import pytest

from grader import render, runner
from grader.cases import load_suite
from grader.grading import grade_stage
from grader.stages import STAGES
from grader.targets import resolve

PARAMS = [pytest.param(stage, name, id=f"{stage.number}-{stage.name}-{name}")
          for stage in STAGES for name in load_suite(stage.cases).check_names(stage.name)]


@pytest.fixture(scope="session")
def report_of(request):
    folder = resolve(request.config.getoption("--target"))
    timeout = request.config.getoption("--stage-timeout") or runner.DEFAULT_TIMEOUT

    @lru_cache(maxsize=None)
    def report(stage):
        return grade_stage(stage, folder / stage.file, timeout)

    return report


@pytest.mark.parametrize("stage, check_name", PARAMS)
def test_check(stage, check_name, report_of):
    report = report_of(stage)
    result = next((c for c in report.checks if c.name == check_name), None)
    if result is None:
        pytest.fail(f"{stage.name}: {report.status}. {report.note}", pytrace=False)
    if not result.passed:
        advice = render.stage_text(report).split("\n")
        mistakes = [line for line in advice if line.startswith("    This") or line.startswith("      *")]
        pytest.fail(f"{result.title}\n{result.message}" + ("\n" + "\n".join(mistakes) if mistakes else ""),
                    pytrace=False)
