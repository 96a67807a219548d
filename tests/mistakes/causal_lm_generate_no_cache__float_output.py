"""Returns the token ids as a float array (the prompt's dtype) instead of integers."""
import numpy as np

from kit_lm import CausalLM


class FloatOutput(CausalLM):
    def ids_out(self, prompt, ids):
        return np.concatenate([prompt, ids[len(prompt):]])


causal_lm_generate_no_cache = FloatOutput().generate
