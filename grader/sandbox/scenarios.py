"""Stage 4 scenarios: short scripts that drive the learner's TinyDecoder and KVCache.

Each returns what it saw (logits, ids, counters, cache contents, buffer addresses,
errors raised) as plain data. The parent compares; nothing here decides a grade.
"""
import numpy as np

from describe import describe


def _address(arr) -> int:
    return int(np.asarray(arr).__array_interface__["data"][0]) if isinstance(arr, np.ndarray) else -1


def _cache_state(cache) -> dict:
    k, v = getattr(cache, "k", None), getattr(cache, "v", None)
    length = getattr(cache, "length", None)
    state = {"length": describe(length), "k": describe(k), "v": describe(v)}
    for name, arr in (("k", k), ("v", v)):
        state[name].pop("array", None)  # the whole buffer is large: send the filled part and the tail
        if isinstance(arr, np.ndarray) and isinstance(length, (int, np.integer)) and arr.ndim == 4:
            state[f"{name}_filled"] = np.array(arr[:, :, :length], dtype=np.float64)
            tail = arr[:, :, length:]
            state[f"{name}_tail_max"] = float(np.abs(tail).max()) if tail.size else 0.0
    return state


def _counters(model) -> dict:
    return {"positions": describe(getattr(model, "positions", None)),
            "scores": describe(getattr(model, "scores", None))}


def _reset(model) -> None:
    model.positions = 0
    model.scores = 0


def _error(exc: BaseException) -> dict:
    return {"type": type(exc).__name__, "message": str(exc)[:300]}


def generation(mod, p):
    """Both generators on one model: ids, step logits, counters, the cache they leave."""
    model = mod.TinyDecoder(**p["config"])
    _reset(model)
    ids_a, logits_a = mod.generate_no_cache(model, list(p["prompt"]), p["n_new"])
    plain = {"ids": describe(ids_a), "logits": describe(logits_a), **_counters(model)}
    _reset(model)
    ids_b, logits_b, cache = mod.generate_with_cache(model, list(p["prompt"]), p["n_new"])
    cached = {"ids": describe(ids_b), "logits": describe(logits_b), **_counters(model),
              "cache": _cache_state(cache)}
    return {"no_cache": plain, "with_cache": cached}


def prefill_paths(mod, p):
    """The prompt in one pass, in two chunks, and one token at a time; plus a full pass without cache."""
    model = mod.TinyDecoder(**p["config"])
    prompt, split = list(p["prompt"]), p["split"]
    out = {}
    one = model.new_cache()
    before = (_address(one.k), _address(one.v))
    out["one_pass"] = {"last": describe(np.asarray(model.forward(prompt, one))[-1]), "cache": _cache_state(one)}
    out["one_pass"]["same_buffers"] = before == (_address(one.k), _address(one.v))
    two = model.new_cache()
    before = (_address(two.k), _address(two.v))
    model.forward(prompt[:split], two)
    out["chunks"] = {"last": describe(np.asarray(model.forward(prompt[split:], two))[-1]),
                     "cache": _cache_state(two)}
    out["chunks"]["same_buffers"] = before == (_address(two.k), _address(two.v))
    each = model.new_cache()
    before = (_address(each.k), _address(each.v))
    for token in prompt:
        last = np.asarray(model.forward([token], each))[-1]
    out["token_by_token"] = {"last": describe(last), "cache": _cache_state(each)}
    out["token_by_token"]["same_buffers"] = before == (_address(each.k), _address(each.v))
    out["full_pass"] = {"last": describe(np.asarray(model.forward(prompt))[-1])}
    return out


def causality(mod, p):
    """Keys and values of a prefix, before and after the sequence grows."""
    model = mod.TinyDecoder(**p["config"])
    cache = model.new_cache()
    n = p["prefix"]
    model.forward(list(p["sequence"][:n]), cache)
    k0, v0 = np.array(cache.k[:, :, :n], dtype=np.float64), np.array(cache.v[:, :, :n], dtype=np.float64)
    model.forward(list(p["sequence"][n:]), cache)
    return {"before": {"k": k0, "v": v0},
            "after": {"k": np.array(cache.k[:, :, :n], dtype=np.float64),
                      "v": np.array(cache.v[:, :, :n], dtype=np.float64)}}


def append_contract(mod, p):
    """KVCache.append on its own: what it returns, where it writes, whether it moves length.

    Each call is (layer, m, commit): after a call with commit set, the scenario advances
    length by m, as the model does once after its last layer."""
    c = p["config"]
    cache = mod.KVCache(c["n_layers"], c["n_heads"], c["max_len"], c["d_head"])
    rng = np.random.default_rng(0)
    out = {"initial": _cache_state(cache), "calls": []}
    before = (_address(cache.k), _address(cache.v))
    for layer, m, commit in p["calls"]:
        k_new = rng.normal(size=(c["n_heads"], m, c["d_head"]))
        v_new = rng.normal(size=(c["n_heads"], m, c["d_head"]))
        k, v = cache.append(layer, k_new, v_new)
        out["calls"].append({"k": describe(k), "v": describe(v), "length_after": describe(cache.length),
                             "k_new": k_new, "v_new": v_new})
        if commit:
            cache.length = int(cache.length) + m
    out["same_buffers"] = before == (_address(cache.k), _address(cache.v))
    out["final"] = _cache_state(cache)
    return out


def max_len_guard(mod, p):
    """Calls that would run past max_len must raise, and leave the cache as it was."""
    model = mod.TinyDecoder(**p["config"])
    cache = model.new_cache()
    model.forward(list(p["prompt"]), cache)
    out = {}
    for name, call in (("forward_with_cache", lambda: model.forward(list(p["more"]), cache)),
                       ("forward_without_cache", lambda: model.forward(list(p["too_long"]))),
                       ("generate_with_cache", lambda: mod.generate_with_cache(model, list(p["prompt"]), p["n_new"]))):
        length = cache.length
        try:
            call()
            out[name] = {"raised": None}
        except Exception as exc:
            out[name] = {"raised": _error(exc)}
        out[name]["length_kept"] = describe(cache.length) == describe(length)
    return out


def kv_bytes(mod, p):
    return {"values": [describe(mod.kv_bytes(*args, **kwargs)) for args, kwargs in p["calls"]]}


def fresh_cache(mod, p):
    """Two generations on one model with different prompts: the second must not reuse the first's cache."""
    model = mod.TinyDecoder(**p["config"])
    mod.generate_with_cache(model, list(p["first"]), p["n_new"])
    ids, logits, _ = mod.generate_with_cache(model, list(p["second"]), p["n_new"])
    return {"ids": describe(ids), "logits": describe(logits)}


SCENARIOS = {f.__name__: f for f in (generation, prefill_paths, causality, append_contract, max_len_guard,
                                     kv_bytes, fresh_cache)}
