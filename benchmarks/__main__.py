"""python -m benchmarks [--quick] [--out DIR]: measure, print the table, write results.json and results.md."""
import os
import sys

# One BLAS thread, set before numpy is first imported: on a shared 2-core machine a second
# thread makes timings swing whenever the other core is busy.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"
if "numpy" in sys.modules:  # pragma: no cover - only if something imported numpy first
    print("warning: numpy was imported before OPENBLAS_NUM_THREADS=1 was set", file=sys.stderr)

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from benchmarks import batch, grader_latency, limits, machine, report, stage4, stage23  # noqa: E402

HERE = Path(__file__).resolve().parent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of small sizes and single repeats (seconds, not the numbers to quote)")
    parser.add_argument("--out", metavar="DIR", help="where to write results.json and results.md "
                        "(default: benchmarks/; a --quick run defaults to a temporary folder, so it never "
                        "overwrites the full results)")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else (Path(tempfile.mkdtemp(prefix="kata-bench-")) if args.quick else HERE)
    out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    print("OPENBLAS_NUM_THREADS=1 (and OMP/MKL_NUM_THREADS=1), set before numpy was imported"
          + ("; quick smoke run" if args.quick else ""), flush=True)
    results = {"quick": args.quick, "date": datetime.datetime.now().isoformat(timespec="seconds"),
               "machine": machine.describe()}
    print("machine limits (copy, cold matvec, matmul) ...", flush=True)
    results["limits"] = limits.measure(args.quick)
    print("grader latency (whole processes) ...", flush=True)
    results["grader_latency"] = grader_latency.measure(args.quick)
    print("stages 2 and 3 (references) ...", flush=True)
    results["stages_2_3"] = stage23.measure(args.quick)
    print("stage 4 (reference) ...", flush=True)
    results["tiny_decoder"] = stage4.measure(args.quick, results["limits"])
    print("batch grading ...", flush=True)
    results["batch"] = batch.measure(args.quick)
    results["load_average_at_end"] = machine.load_now()
    results["seconds"] = round(time.perf_counter() - started, 1)
    results["targets"] = report.targets(results)

    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    table = report.markdown(results)
    (out / "results.md").write_text(table)
    print()
    print(table)
    print(f"wrote {out / 'results.json'} and {out / 'results.md'} ({results['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
