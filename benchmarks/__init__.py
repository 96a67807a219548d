"""`python -m benchmarks`: what the grader costs and what the cache buys, in numbers from this machine.

One command measures grader latency, the stage 2/3/4 references with and without the cache,
the machine's own limits (a large copy, a cold matrix-vector product, a large matrix
product) in the same run, and batch grading throughput; it prints a table and writes
benchmarks/results.json and benchmarks/results.md. `--quick` is a smoke run of a few seconds.

Every measurement runs with OPENBLAS_NUM_THREADS=1 (set in __main__ before numpy is
imported): on a shared 2-core machine a second BLAS thread makes timings swing whenever the
other core is busy. Timings are reported as median, min and max over repeated runs; nothing
here is a test, and no test asserts a time.
"""
