"""The C suite kind (``kind = "c"``): C11 functions compiled by gcc and tested by a C grader."""

from tuner.suites.c.kind import CKind

__all__ = ["CKind"]
