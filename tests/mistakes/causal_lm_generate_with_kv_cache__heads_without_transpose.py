"""Reshapes (T, D) straight to (H, T, hd) without the transpose, so heads mix features of different tokens."""
from causal_lm_generate_no_cache__heads_without_transpose import HeadsWithoutTranspose

causal_lm_generate_with_kv_cache = HeadsWithoutTranspose().generate_cached
