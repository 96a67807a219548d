"""The references pass every check; the untouched stubs are 'not started' and keep the references' API."""
import importlib.util
import inspect

import pytest

from conftest import REPO, grade_many, kata
from grader.report import NOT_STARTED, PASSED
from grader.stages import STAGES


def test_every_reference_passes_every_check():
    reports = grade_many([(s.name, REPO / "solutions" / s.file) for s in STAGES])
    for report in reports:
        failed = [f"{c.title}: {c.message}" for c in report.checks if not c.passed]
        assert report.status == PASSED, (report.stage, report.note, failed)
        assert report.checks, report.stage


def test_untouched_stubs_are_not_started():
    reports = grade_many([(s.name, REPO / "exercises" / s.file) for s in STAGES])
    assert [r.status for r in reports] == [NOT_STARTED] * len(STAGES)
    assert all("NotImplementedError" in r.note for r in reports)


def _module(path):
    spec = importlib.util.spec_from_file_location(f"_drift_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _public_api(module):
    """name -> signature for public functions, classes and their public methods defined in the module."""
    api = {}
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            api[name] = str(inspect.signature(obj))
        elif inspect.isclass(obj):
            api[name] = "class"
            for attr, member in vars(obj).items():
                if inspect.isfunction(member) and (not attr.startswith("_") or attr == "__init__"):
                    api[f"{name}.{attr}"] = str(inspect.signature(member))
    return api


@pytest.mark.parametrize("stage", STAGES, ids=lambda s: s.name)
def test_stub_keeps_the_reference_signatures(stage):
    stub = _public_api(_module(REPO / "exercises" / stage.file))
    reference = _public_api(_module(REPO / "solutions" / stage.file))
    for name in stage.graded_api:  # what the grader calls must exist in both, alike
        assert name in reference and stub.get(name) == reference[name], (stage.file, name)
    for name in stub.keys() & reference.keys():  # helpers offered in the stub match the reference's
        assert stub[name] == reference[name], f"{stage.file}: {name}{reference[name]} in solutions, {stub[name]} in the stub"


@pytest.mark.parametrize("stage", STAGES, ids=lambda s: s.name)
def test_every_stage_has_instructions_and_hints(stage):
    text = (REPO / "exercises" / stage.instructions).read_text()
    assert len(text.splitlines()) > 30 and "kata check" in text
    assert len(stage.hints) >= 3


def test_kata_check_on_solutions_exits_0():
    result = kata("check", "--target", "solutions")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("passed") >= len(STAGES)


def test_kata_check_on_stubs_exits_1_with_every_stage_not_started():
    result = kata("check")
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.count("not started") == len(STAGES)
