"""The Convex suite kind and its whole grader (``kind = "convex"`` in ``suite.toml``)."""

from tuner.suites.convex.kind import OUTPUT_FORMAT, STEP_NAMES, ConvexKind

__all__ = ["ConvexKind", "OUTPUT_FORMAT", "STEP_NAMES"]
