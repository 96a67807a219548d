"""The machine the numbers were measured on: CPU, cores, numpy, BLAS, load."""
from __future__ import annotations

import glob
import os
import platform
import sys

import numpy as np


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def blas() -> str:
    try:
        from threadpoolctl import threadpool_info

        for pool in threadpool_info():
            if pool.get("user_api") == "blas":
                return (f"{pool.get('internal_api')} {pool.get('version')} ({pool.get('architecture')} kernels, "
                        f"{pool.get('num_threads')} thread)")
    except ImportError:
        pass
    try:
        info = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{info.get('name')} {info.get('version')} (threadpoolctl not installed: kernel unknown)"
    except Exception:  # numpy < 1.26 has no mode="dicts"
        return "unknown (install threadpoolctl to see it)"


def caches() -> dict:
    """Per-core cache sizes from sysfs, e.g. {"L1d": "48K", "L2": "2048K", "L3": "266240K"}."""
    found = {}
    for index in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        try:
            level = open(f"{index}/level").read().strip()
            kind = open(f"{index}/type").read().strip()
            size = open(f"{index}/size").read().strip()
        except OSError:
            continue
        if kind != "Instruction":
            found[f"L{level}" + ("d" if kind == "Data" else "")] = size
    return found


def describe() -> dict:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "blas": blas(),
        "caches_per_core": caches(),
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
        "load_average_at_start": [round(x, 2) for x in load],
    }


def load_now() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else []
