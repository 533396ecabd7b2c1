"""Failure analysis of a run (``tuner analyze``): summary, a DSPy analyst per failed eval, collation, report."""

from tuner.analysis.analyst import CLASSIFICATIONS, CONCURRENCY, UNCLASSIFIED, Verdict
from tuner.analysis.analyze import AnalysisResult, analyze_run, check_author
from tuner.analysis.failures import Failure, FailureSummary, summarise
from tuner.analysis.runref import resolve_run

__all__ = [
    "CLASSIFICATIONS",
    "CONCURRENCY",
    "UNCLASSIFIED",
    "AnalysisResult",
    "Failure",
    "FailureSummary",
    "Verdict",
    "analyze_run",
    "check_author",
    "resolve_run",
    "summarise",
]
