"""Returns the ids as a Python list instead of a numpy array."""
from kit_lm import CausalLM


class ListOutput(CausalLM):
    def ids_out(self, prompt, ids):
        return [int(t) for t in ids]


causal_lm_generate_no_cache = ListOutput().generate
