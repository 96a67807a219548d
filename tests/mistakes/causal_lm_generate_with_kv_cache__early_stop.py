"""Stops generating as soon as token id 0 comes out, as if it were an end-of-sequence token."""
from causal_lm_generate_no_cache__early_stop import EarlyStop

causal_lm_generate_with_kv_cache = EarlyStop().generate_cached
