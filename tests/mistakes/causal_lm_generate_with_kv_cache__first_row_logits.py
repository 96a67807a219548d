"""The first new token is chosen from the prefill's logits at position 0 instead of the last prompt position."""
from kit_lm import CausalLM


class FirstRowLogits(CausalLM):
    def next_logits(self, logits):
        return logits[0]


causal_lm_generate_with_kv_cache = FirstRowLogits().generate_cached
