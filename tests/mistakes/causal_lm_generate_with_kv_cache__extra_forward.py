"""Feeds the last generated token through the model too, reading a position embedding row past the end."""
import numpy as np

from kit_lm import CausalLM


class ExtraForward(CausalLM):
    def generate_cached(self, prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
        ids, P, n = self.ids_in(prompt), len(prompt), self.count(max_new_tokens)
        if n == 0:
            return self.no_new_tokens(prompt, ids)
        m = self.model(w_emb, pos_embed, blocks_weights, w_head, num_heads)
        cache = self.new_cache(m)
        logits = self.forward(m, ids, np.arange(P), cache)
        while self.keep_going(ids, P, n):
            ids.append(self.pick(self.next_logits(logits)))
            logits = self.decode(m, ids, P, cache)  # feed every new token in, the last one too
        return self.ids_out(prompt, ids)


causal_lm_generate_with_kv_cache = ExtraForward().generate_cached
