"""Reshapes (T, D) straight to (H, T, hd) without the transpose, so heads mix features of different tokens."""
from kit_lm import CausalLM


class HeadsWithoutTranspose(CausalLM):
    def split_heads(self, t, H):
        T, D = t.shape
        return t.reshape(H, T, D // H)

    def merge_heads(self, h):
        H, T, hd = h.shape
        return h.reshape(T, H * hd)


causal_lm_generate_no_cache = HeadsWithoutTranspose().generate
