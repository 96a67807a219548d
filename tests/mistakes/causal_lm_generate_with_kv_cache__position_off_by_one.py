"""Decode positions are shifted by one: the first generated token is fed at position P+1 instead of P."""
from kit_lm import CausalLM


class PositionOffByOne(CausalLM):
    def position_of(self, ids, P):
        return len(ids)  # the sequence now has len(ids) tokens


causal_lm_generate_with_kv_cache = PositionOffByOne().generate_cached
