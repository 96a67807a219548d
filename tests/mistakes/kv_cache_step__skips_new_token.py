"""The query attends over the old cache only, leaving out the new token's own key and value."""
from kit_attention_step import AttentionStep


class SkipsNewToken(AttentionStep):
    def attend(self, new_q, cached_K, cached_V, full_K, full_V):
        scores = self.scale(self.scores(new_q, cached_K), new_q.shape[-1])  # the tokens seen so far
        return self.finish(self.softmax(self.mask(scores)), cached_V)


kv_cache_step = SkipsNewToken().step
