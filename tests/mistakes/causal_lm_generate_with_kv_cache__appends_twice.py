"""Appends each decoded token's keys and values to its block's cache twice, so attention counts it double."""
from kit_lm import CausalLM


class AppendsTwice(CausalLM):
    def keys_values(self, m, x, w_k, w_v, layer, cache):
        k, v = self.split_heads(x @ w_k, m.H), self.split_heads(x @ w_v, m.H)
        if self.read(cache, layer)[0].shape[1] > 0:  # decoding: put the new token into the cache
            self.append(cache, layer, k, v)
        self.append(cache, layer, k, v)  # store this pass's keys and values, prompt or new token
        return self.read(cache, layer)


causal_lm_generate_with_kv_cache = AppendsTwice().generate_cached
