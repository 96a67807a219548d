"""One module per case suite: how its inputs are built and which checks judge them."""
import importlib

from grader.suite import Suite


def load_suite(name: str) -> Suite:
    return importlib.import_module(f"grader.cases.{name}").SUITE
