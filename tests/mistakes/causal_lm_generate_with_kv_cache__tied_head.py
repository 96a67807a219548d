"""Computes the logits with w_emb.T (tied embeddings) instead of w_head."""
from causal_lm_generate_no_cache__tied_head import TiedHead

causal_lm_generate_with_kv_cache = TiedHead().generate_cached
