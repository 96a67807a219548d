"""Each decoded token goes through the blocks twice, so its keys and values are appended to the cache twice."""
from kit_lm import CausalLM


class AppendsTwice(CausalLM):
    def decode(self, m, ids, P, cache):
        position = [len(ids) - 1]
        self.forward(m, ids[-1:], position, cache)  # store the new token's keys and values ...
        return self.forward(m, ids[-1:], position, cache)  # ... then run it for its logits


causal_lm_generate_with_kv_cache = AppendsTwice().generate_cached
