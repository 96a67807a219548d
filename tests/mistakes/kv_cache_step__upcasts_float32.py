"""Divides by np.sqrt(D), a float64 numpy scalar, so float32 inputs come back as float64."""
import numpy as np

from kit_attention_step import AttentionStep


class UpcastsFloat32(AttentionStep):
    def scale(self, scores, d):
        return scores / np.sqrt(d)


kv_cache_step = UpcastsFloat32().step
