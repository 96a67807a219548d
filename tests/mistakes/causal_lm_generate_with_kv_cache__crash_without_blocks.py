"""Reads the model width from blocks_weights[0], which raises IndexError when there are no blocks."""
from causal_lm_generate_no_cache__crash_without_blocks import CrashWithoutBlocks

causal_lm_generate_with_kv_cache = CrashWithoutBlocks().generate_cached
