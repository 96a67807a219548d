"""Reads the model width from blocks_weights[0], which raises IndexError when there are no blocks."""
from kit_lm import CausalLM


class CrashWithoutBlocks(CausalLM):
    def sizes(self, w_emb, blocks_weights, num_heads):
        D = blocks_weights[0].shape[-1]  # every block matrix is (D, D)
        return len(blocks_weights), D, D // num_heads


causal_lm_generate_no_cache = CrashWithoutBlocks().generate
