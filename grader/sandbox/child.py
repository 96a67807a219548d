"""Entry point of the child process that runs learner code.

    python -I -B child.py REQUEST.json RESULTS.jsonl

It loads the learner's file by path, runs one probe per case and appends one JSON line
per event to RESULTS. It judges nothing: the parent compares and reports, so whatever
happens here (a crash, an exit, a patched numpy) can only cost the learner points.
"""
import importlib.util
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import codec  # noqa: E402
import probes  # noqa: E402

# Bound before learner code runs, so a module that patches these names cannot reach us.
_to_plain, _dumps, _perf, digest = codec.to_plain, json.dumps, time.perf_counter, codec.digest


def describe_error(exc: BaseException, learner_dir: str) -> dict:
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if os.path.abspath(f.filename).startswith(learner_dir + os.sep)]
    where = None
    if mine:
        last = mine[-1]
        where = {"file": os.path.basename(last.filename), "line": last.lineno, "code": (last.line or "").strip()}
    if isinstance(exc, SyntaxError) and exc.filename:
        where = {"file": os.path.basename(exc.filename), "line": exc.lineno or 0, "code": (exc.text or "").strip()}
    return {
        "type": type(exc).__name__,
        "message": str(exc)[:500],
        "where": where,
        "not_implemented": isinstance(exc, NotImplementedError),
    }


def load(path: str):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


MEMORY_LIMIT = 4 << 30  # bytes of address space: a runaway allocation fails here, not on the machine


def limit_memory() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass  # not every system lets a process limit itself; the time limit still holds


def main() -> None:
    limit_memory()
    request_path, results_path = sys.argv[1], sys.argv[2]
    with open(request_path) as f:
        request = codec.from_plain(json.load(f))
    out = open(results_path, "a", buffering=1)

    def emit(event: dict) -> None:
        out.write(_dumps(_to_plain(event)) + "\n")
        out.flush()

    path = os.path.abspath(request["file"])
    learner_dir = os.path.dirname(path)
    sys.path.insert(0, learner_dir)  # the learner's own helper modules beside the stage file
    probe = probes.PROBES[request["probe"]]
    tools = probes.Tools(digest=digest, clock=_perf)
    try:
        module = load(path)
        entry = probe.entry(module, request)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt too: report, never die
        emit({"event": "load_error", "error": describe_error(exc, learner_dir)})
        return
    for case in request["cases"]:
        emit({"event": "start", "case": case["id"]})
        try:
            observation = probe.run(entry, case, tools)
        except BaseException as exc:
            observation = {"error": describe_error(exc, learner_dir)}
        emit({"event": "done", "case": case["id"], "observation": observation})


if __name__ == "__main__":
    main()
