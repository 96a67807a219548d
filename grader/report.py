"""What a grading found, as plain data. Renderers (text, JSON, Gradescope) only format it."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

PASSED, FAILED, NOT_STARTED = "passed", "failed", "not started"


@dataclass
class CheckResult:
    name: str  # stable identifier, e.g. "output_values"
    title: str  # what a learner reads, e.g. "output values match the reference"
    passed: bool
    message: str = ""  # on failure: expected versus received, and the case it happened on
    failed_cases: int = 0
    total_cases: int = 0


@dataclass
class MistakeMatch:
    slug: str
    title: str
    explanation: str
    hint: int


@dataclass
class StageReport:
    number: int
    stage: str
    title: str
    status: str
    checks: list[CheckResult] = field(default_factory=list)
    mistakes: list[MistakeMatch] = field(default_factory=list)
    note: str = ""  # why a stage did not run at all (no file, a syntax error, ...)
    printed: str = ""  # what the learner's code printed, kept short
    seconds: float = 0.0

    @property
    def passed_checks(self) -> int:
        return sum(c.passed for c in self.checks)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["passed_checks"] = self.passed_checks
        return data
