"""An exact tie between top logits goes to the largest token id instead of the smallest."""
from causal_lm_generate_no_cache__ties_to_largest import TiesToLargest

causal_lm_generate_with_kv_cache = TiesToLargest().generate_cached
