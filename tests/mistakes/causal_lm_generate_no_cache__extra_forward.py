"""Recomputes the logits after the last token too, reading a position embedding row past the end."""
import numpy as np

from kit_lm import CausalLM


class ExtraForward(CausalLM):
    def generate(self, prompt, w_emb, pos_embed, blocks_weights, w_head, num_heads, max_new_tokens):
        ids, P, n = self.ids_in(prompt), len(prompt), self.count(max_new_tokens)
        if n == 0:
            return self.no_new_tokens(prompt, ids)
        m = self.model(w_emb, pos_embed, blocks_weights, w_head, num_heads)
        logits = self.forward(m, ids, np.arange(P))
        while self.keep_going(ids, P, n):
            ids.append(self.pick(self.next_logits(logits)))
            logits = self.forward(m, ids, np.arange(len(ids)))  # ready for the next round
        return self.ids_out(prompt, ids)


causal_lm_generate_no_cache = ExtraForward().generate
