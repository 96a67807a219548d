"""Pre-LN blocks (normalise before each branch, add the branch to x) instead of the required post-LN blocks."""
from kit_lm import CausalLM


class PreLN(CausalLM):
    def block(self, m, x, w, layer, cache):
        w_q, w_k, w_v, w_o, w_mlp1, w_mlp2 = w
        h = self.layer_norm(x)
        q = self.queries(m, h, w_q)
        k, v = self.keys_values(m, h, w_k, w_v, layer, cache)
        x = x + self.merge_heads(self.attention(q, k, v, self.causal_mask(len(x), k.shape[1]))) @ w_o
        return x + self.gelu(self.layer_norm(x) @ w_mlp1) @ w_mlp2


causal_lm_generate_with_kv_cache = PreLN().generate_cached
