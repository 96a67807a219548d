"""Returns only the generated tokens, without the prompt in front."""
import numpy as np

from kit_lm import CausalLM


class GeneratedOnly(CausalLM):
    def ids_out(self, prompt, ids):
        return np.array(ids[len(prompt):], dtype=np.int64)


causal_lm_generate_no_cache = GeneratedOnly().generate
