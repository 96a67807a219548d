"""Decode positions restart at 0: the first generated token is fed at position 0 instead of P."""
from kit_lm import CausalLM


class PositionRestart(CausalLM):
    def position_of(self, ids, P):
        return len(ids) - 1 - P  # count the generated tokens


causal_lm_generate_with_kv_cache = PositionRestart().generate_cached
