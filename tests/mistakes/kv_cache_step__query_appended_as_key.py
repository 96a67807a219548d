"""Appends the new query, not the new key, to the keys."""
from kit_attention_step import AttentionStep


class QueryAppendedAsKey(AttentionStep):
    def concat_keys(self, cached_K, new_k, new_q):
        return self.append(cached_K, new_q)


kv_cache_step = QueryAppendedAsKey().step
