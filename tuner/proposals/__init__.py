"""Candidate rules drafted from failures (``tuner propose``), with provenance; skipped when near-duplicate."""

from tuner.proposals.propose import ProposalResult, SkippedDraft, WrittenRule, propose_rules
from tuner.proposals.similarity import JACCARD_THRESHOLD, SENTENCE_THRESHOLD, closest, similarity

__all__ = [
    "JACCARD_THRESHOLD",
    "SENTENCE_THRESHOLD",
    "ProposalResult",
    "SkippedDraft",
    "WrittenRule",
    "closest",
    "propose_rules",
    "similarity",
]
