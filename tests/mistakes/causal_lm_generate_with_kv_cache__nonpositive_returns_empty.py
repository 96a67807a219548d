"""With max_new_tokens <= 0 it returns an empty array instead of the prompt."""
import numpy as np

from kit_lm import CausalLM


class NonpositiveReturnsEmpty(CausalLM):
    def no_new_tokens(self, prompt, ids):
        return np.array([], dtype=np.int64)  # nothing was asked for


causal_lm_generate_with_kv_cache = NonpositiveReturnsEmpty().generate_cached
