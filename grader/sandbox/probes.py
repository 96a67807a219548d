"""Probes: how one case is run in the child. Each returns plain data, never a verdict."""
from dataclasses import dataclass
from typing import Callable

import numpy as np

import counting
from describe import describe


@dataclass
class Tools:
    digest: Callable
    clock: Callable


class CallProbe:
    """Call the stage function once on the case's arguments."""

    def entry(self, module, request):
        name = request["function"]
        fn = getattr(module, name, None)
        if not callable(fn):
            raise AttributeError(f"the file defines no function named {name}()")
        return fn

    def prepare(self, args, case):
        return args

    def run(self, fn, case, tools):
        args = [np.array(a) if isinstance(a, np.ndarray) else a for a in case["args"]]
        for a in args:
            if isinstance(a, np.ndarray) and case.get("readonly"):
                a.flags.writeable = False
        called = self.prepare(args, case)
        start = tools.clock()
        out = fn(*called)
        seconds = tools.clock() - start
        observation = {
            "output": describe(out),
            "inputs_after": [tools.digest(a) if isinstance(a, np.ndarray) else None for a in args],
            "seconds": seconds,
        }
        observation.update(self.extra())
        return observation

    def extra(self):
        return {}


class CountingProbe(CallProbe):
    """Like CallProbe, and counts the work done with the weights at `case['counted']`."""

    def prepare(self, args, case):
        index = case["counted"]
        called = list(args)
        called[index], self.ledger = counting.watch(args[index])
        return called

    def extra(self):
        return {"work": self.ledger.units}


class ScenarioProbe:
    """Run one of the scenarios in scenarios.py against the learner's module."""

    def entry(self, module, request):
        return module

    def run(self, module, case, tools):
        import scenarios

        start = tools.clock()
        observation = scenarios.SCENARIOS[case["scenario"]](module, case["params"])
        return {"output": observation, "seconds": tools.clock() - start}


PROBES = {"call": CallProbe(), "counting": CountingProbe(), "scenario": ScenarioProbe()}
