"""What the notebooks import: one switch to pick an implementation, and the grader in a cell.

    from grader.notebook import use, check, load

    td = use("tiny_decoder")        # your exercises/tiny_decoder.py if it works, else the reference
    check("kv_cache_step")          # the same grading and the same text as `kata check kv_cache_step -v`

Modules are loaded from their file path every time (never imported as packages),
so editing a file in exercises/ and re-running the cell is enough: no kernel restart.
"""
from __future__ import annotations

import importlib.util
import sys
import traceback
from pathlib import Path
from types import ModuleType

import numpy as np

from grader.targets import REPO, UsageError, resolve

__all__ = ["use", "check", "load"]


def load(stage_name: str, target: str = "exercises") -> ModuleType:
    """Load <target>/<stage_name>.py afresh by its path and return the module (nothing is called)."""
    path = _folder(target) / f"{stage_name}.py"
    if not path.is_file():
        raise FileNotFoundError(f"no file {path}")
    name = f"kata_{Path(target).name}_{stage_name}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # some code (dataclasses, pickling) looks itself up there
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def use(stage_name: str, prefer: str = "exercises") -> ModuleType:
    """The one switch: the learner's implementation of a stage where it works, else the reference.

    prefer="exercises" (the default) tries exercises/<stage>.py on a tiny input and
    falls back to solutions/<stage>.py when it is not implemented yet (or fails).
    prefer="solutions" takes the reference straight away when this copy has one.
    Prints one line saying which file was chosen and why. In a student release
    (no solutions/ folder) an unimplemented stage raises an error that says so.
    """
    if prefer not in ("exercises", "solutions"):
        raise ValueError(f"prefer must be 'exercises' or 'solutions', not {prefer!r}")
    has_reference = (REPO / "solutions" / f"{stage_name}.py").is_file()
    if not has_reference and not (REPO / "exercises" / f"{stage_name}.py").is_file():
        raise FileNotFoundError(f"unknown stage {stage_name!r}: there is no exercises/{stage_name}.py "
                                f"in {REPO}")
    if prefer == "solutions" and has_reference:
        print(f"{stage_name}: using the reference solutions/{stage_name}.py (prefer='solutions')")
        return load(stage_name, "solutions")

    module, problem = _try_exercise(stage_name)
    if problem is None:
        print(f"{stage_name}: using your exercises/{stage_name}.py (it runs on a tiny example)")
        return module
    if has_reference:
        print(f"{stage_name}: using the reference solutions/{stage_name}.py, because your "
              f"exercises/{stage_name}.py {problem}")
        return load(stage_name, "solutions")
    if module is not None and "NotImplementedError" not in problem:
        print(f"{stage_name}: using your exercises/{stage_name}.py, although it {problem}; "
              f"run check({stage_name!r}) to see what is wrong")
        return module
    raise RuntimeError(f"{stage_name}: this notebook needs a working exercises/{stage_name}.py, and yours "
                       f"{problem}. Implement the stage first (with {_stage_notebook(stage_name)} or "
                       f"`kata check {stage_name}`), then re-run this cell.")


def check(stage_name: str, target: str = "exercises"):
    """Grade one stage exactly as `kata check` does, print the verbose report and return it.

    Returns the StageReport, or None (after printing why) when the stage is not in
    the grader's registry. A missing target raises grader.targets.UsageError.
    """
    from grader.grading import grade_stage
    from grader.render import stage_text
    from grader.stages import STAGES, by_name

    try:
        stage = by_name(stage_name)
    except KeyError:
        known = ", ".join(s.name for s in STAGES)
        print(f"check({stage_name!r}): the grader has no stage named {stage_name!r} (yet). Known stages: {known}.")
        return None
    report = grade_stage(stage, resolve(target) / stage.file)
    print(stage_text(report, verbose=True))
    return report


# ---------------------------------------------------------------------------------------------
# deciding whether the learner's file is implemented: call its functions on a tiny input


def _probe_kv_cache_step(mod):
    empty = np.zeros((0, 2))
    mod.kv_cache_step(empty, empty, np.zeros((1, 2)), np.ones((1, 2)), np.ones((1, 2)))


def _tiny_lm():
    rng = np.random.default_rng(0)
    V, D, P, M = 3, 2, 1, 1
    return (np.array([1.0]), rng.normal(size=(V, D)), rng.normal(size=(P + M - 1, D)),
            rng.normal(size=(1, 6, D, D)), rng.normal(size=(D, V)), 1, M)


def _probe_no_cache(mod):
    mod.causal_lm_generate_no_cache(*_tiny_lm())


def _probe_with_cache(mod):
    mod.causal_lm_generate_with_kv_cache(*_tiny_lm())


def _probe_tiny_decoder(mod):
    mod.kv_bytes(1, 1, 1, 1)
    model = mod.TinyDecoder(vocab=5, d_model=4, n_heads=2, n_layers=1, max_len=4, seed=0)
    mod.generate_no_cache(model, [1], 2)
    mod.generate_with_cache(model, [1], 2)


PROBES = {
    "kv_cache_step": _probe_kv_cache_step,
    "causal_lm_generate_no_cache": _probe_no_cache,
    "causal_lm_generate_with_kv_cache": _probe_with_cache,
    "tiny_decoder": _probe_tiny_decoder,
}


def _try_exercise(stage_name: str) -> tuple[ModuleType | None, str | None]:
    """(module, None) when exercises/<stage>.py loads and runs its probe; else (module or None, why not)."""
    try:
        module = load(stage_name, "exercises")
    except FileNotFoundError:
        return None, "does not exist"
    except NotImplementedError:
        return None, "raises NotImplementedError as it loads"
    except Exception as exc:  # a syntax error, a failing import: the learner should hear about it
        return None, f"cannot be loaded ({type(exc).__name__}: {exc})"
    probe = PROBES.get(stage_name)
    if probe is None:
        return module, None
    try:
        probe(module)
    except NotImplementedError as exc:
        where = traceback.extract_tb(exc.__traceback__)[-1].name
        return module, f"is not implemented yet ({where} raises NotImplementedError)"
    except Exception as exc:
        return module, f"fails on a tiny example ({type(exc).__name__}: {exc})"
    return module, None


def _stage_notebook(stage_name: str) -> str:
    from grader.stages import by_name

    try:
        return f"notebooks/stage{by_name(stage_name).number}_{stage_name}.ipynb"
    except KeyError:
        return f"exercises/{stage_name}.md"


def _folder(target: str) -> Path:
    try:
        return resolve(target)
    except UsageError as exc:
        raise FileNotFoundError(str(exc)) from None
