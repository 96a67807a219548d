"""Stops generating as soon as token id 0 comes out, as if it were an end-of-sequence token."""
from kit_lm import CausalLM


class EarlyStop(CausalLM):
    def keep_going(self, ids, P, n):
        if len(ids) > P and ids[-1] == 0:  # id 0 ends the text
            return False
        return len(ids) < P + n


causal_lm_generate_with_kv_cache = EarlyStop().generate_cached
