"""Computes the logits with w_emb.T (tied embeddings) instead of w_head."""
from kit_lm import CausalLM


class TiedHead(CausalLM):
    def logits(self, m, x):
        return x @ m.w_emb.T


causal_lm_generate_with_kv_cache = TiedHead().generate_cached
