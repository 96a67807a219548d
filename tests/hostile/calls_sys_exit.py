"""Raises SystemExit(0) from inside the function."""
import sys


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    sys.exit(0)
