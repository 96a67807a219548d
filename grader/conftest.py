"""`pytest grader --target solutions`: the graders as plain pytest, one test per check."""


def pytest_addoption(parser):
    parser.addoption("--target", default="exercises",
                     help="folder to grade: exercises (default), solutions, or a path")
    parser.addoption("--stage-timeout", type=float, default=None, help="seconds a stage's code may run")
