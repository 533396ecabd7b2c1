"""Near-duplicate detection between a drafted rule and existing rule texts.

Two measures over lowercased word tokens (``[a-z0-9_]+``, words of three letters or more):

- a **copied sentence**: some sentence of the draft with at least ``MIN_WORDS`` words has at least
  ``SENTENCE_THRESHOLD`` (80%) of its word trigrams (shingles) in the existing text. A draft that
  restates an existing rule's key sentence nearly word for word adds nothing to the prompt.
- a **shared vocabulary**: the Jaccard similarity of the two texts' word sets is at least
  ``JACCARD_THRESHOLD`` (0.5): the same advice in other words.

Either makes the draft a near-duplicate. Every variant (phrasing) of every rule, whatever its
status, is compared, so a draft equal to a retired or an earlier candidate rule is skipped too.
"""

from __future__ import annotations

import re

__all__ = ["Similarity", "similarity", "closest", "SENTENCE_THRESHOLD", "JACCARD_THRESHOLD", "MIN_WORDS"]

SENTENCE_THRESHOLD = 0.8
JACCARD_THRESHOLD = 0.5
MIN_WORDS = 4
_WORD = re.compile(r"[a-z0-9_]+")
_SENTENCE = re.compile(r"(?<=[.!?:;])\s+|\n+")


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if len(w) >= 3]


def _shingles(words: list[str], n: int = 3) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


class Similarity:
    def __init__(self, sentence: float, jaccard: float):
        self.sentence, self.jaccard = sentence, jaccard

    @property
    def duplicate(self) -> bool:
        return self.sentence >= SENTENCE_THRESHOLD or self.jaccard >= JACCARD_THRESHOLD

    def describe(self) -> str:
        return f"copied-sentence {self.sentence:.2f} (dup at {SENTENCE_THRESHOLD}), word-set Jaccard {self.jaccard:.2f} (dup at {JACCARD_THRESHOLD})"

    @property
    def score(self) -> float:
        return max(self.sentence, self.jaccard)


def similarity(draft: str, existing: str) -> Similarity:
    ew = _words(existing)
    eshingles = _shingles(ew)
    best = 0.0
    for sentence in _SENTENCE.split(draft):
        sw = _words(sentence)
        if len(sw) < MIN_WORDS:
            continue
        sh = _shingles(sw)
        if sh:
            best = max(best, len(sh & eshingles) / len(sh))
    a, b = set(_words(draft)), set(ew)
    jaccard = len(a & b) / len(a | b) if a | b else 0.0
    return Similarity(best, jaccard)


def closest(draft: str, texts: dict[str, str]) -> tuple[str | None, Similarity]:
    """The existing text (by name) most similar to ``draft``."""
    best_name, best = None, Similarity(0.0, 0.0)
    for name, text in texts.items():
        s = similarity(draft, text)
        if s.score > best.score:
            best_name, best = name, s
    return best_name, best
