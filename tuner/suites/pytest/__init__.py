"""The pytest suite kind (``kind = "pytest"`` in ``suite.toml``): Python answers under ``app/``."""

from tuner.suites.pytest.kind import OUTPUT_FORMAT, PytestKind

__all__ = ["PytestKind", "OUTPUT_FORMAT"]
