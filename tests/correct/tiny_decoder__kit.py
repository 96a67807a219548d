"""The stage-4 mistake kit, unchanged: proves the base that every stage-4 mistake file overrides is correct."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mistakes"))

from kit_tiny_decoder import KVCache, TinyDecoder, generate_no_cache, generate_with_cache, kv_bytes  # noqa: E402

__all__ = ["kv_bytes", "KVCache", "TinyDecoder", "generate_no_cache", "generate_with_cache"]
