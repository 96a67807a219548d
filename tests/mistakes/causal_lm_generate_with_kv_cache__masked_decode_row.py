"""The single decode query gets a triangular mask built for its local row 0, so it only sees the first cached key."""
import numpy as np

from kit_lm import CausalLM


class MaskedDecodeRow(CausalLM):
    def causal_mask(self, n_queries, n_keys):
        return np.triu(np.ones((n_queries, n_keys), dtype=bool), k=1)


causal_lm_generate_with_kv_cache = MaskedDecodeRow().generate_cached
