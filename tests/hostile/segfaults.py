"""Crashes the interpreter with a segmentation fault."""
import ctypes


def kv_cache_step(cached_K, cached_V, new_q, new_k, new_v):
    ctypes.string_at(0)
