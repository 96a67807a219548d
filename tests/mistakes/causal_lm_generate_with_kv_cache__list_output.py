"""Returns the ids as a Python list instead of a numpy array."""
from causal_lm_generate_no_cache__list_output import ListOutput

causal_lm_generate_with_kv_cache = ListOutput().generate_cached
