"""An answer's failure signature: how it failed, finer than its first failing step.

Why. The rule-effect engine reads each answer through its failure modes (``tuner.engine.modes``):
the finer the modes, the more of the noise of other rules' mistakes it can set aside. The grader
stops at the first failing step (later ones are ``skip``), but that step's detail names what failed:
the failing tests, the TypeScript diagnostics, the lint rules. The signature is the first failing
step plus that step's distinct error identities, normalized so two answers that fail the same way
share it whatever their line numbers, paths or wording:

    tests    ``tests:<failing test's full name>`` per failing test (the Convex reporter's ``✗ name``
             lines; other kinds' test details, pytest's ``name: message``, read as the step alone:
             reading them changed single-seed decisions tests/tuning pins, left for later)
    tsc      ``tsc:TS2345`` per diagnostic code
    eslint   ``eslint:<rule id>`` per rule (``parse`` for a parser error)
    bundle   ``bundle:<esbuild's message>`` per error, what it quotes left out
             (``bundle:Could not resolve ""``)
    others   the step alone (filesystem, codegen: their messages carry answer text)

A step whose detail names nothing recognizable (a hang, a test file that did not load, a detail cut
before the first name) is the step alone. Only the first ``DETAIL_LINES`` lines of a detail are
kept with a grade, so failing tests listed after them are not seen: the signature is then coarser,
never wrong. Deterministic and cheap: a few regexes over one stored detail.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tuner.grading.models import GradeResult

__all__ = ["signature", "step_signature", "signatures_by_key"]

_TSC_CODE = re.compile(r"\berror (TS\d+):")
# A finding's message may span lines; its rule id closes the last one ("... (@convex-dev/x)").
_ESLINT_RULE = re.compile(r"\(([@\w][\w@/.-]*)\)\s*$")
_BUNDLE_ERROR = re.compile(r":\d+:\d+: error: (.+)$")
_QUOTED = re.compile(r'"[^"]*"')
_TEST_NAME = re.compile(r"^✗ (.+?)\s*$")  # Convex: the vitest reporter's line per failing test


def step_signature(step: str, detail: str) -> tuple[str, ...]:
    """The distinct error identities of ``step``'s ``detail`` (sorted), or ``(step,)`` when it
    names none this module reads."""
    found: set[str] = set()
    for line in detail.splitlines():
        if step == "tsc":
            found.update(f"tsc:{code}" for code in _TSC_CODE.findall(line))
        elif step == "eslint" and (m := _ESLINT_RULE.search(line)):
            found.add(f"eslint:{m.group(1)}")
        elif step == "bundle" and (m := _BUNDLE_ERROR.search(line)):
            # esbuild's message with what it quotes (a module, a path, a name) left out.
            found.add("bundle:" + " ".join(_QUOTED.sub('""', m.group(1)).split()))
        elif step == "tests" and (m := _TEST_NAME.match(line)):
            found.add("tests:" + " ".join(m.group(1).split()))
    return tuple(sorted(found)) or (step,)


def signature(result: GradeResult) -> tuple[str, ...]:
    """How ``result`` failed: its first failing step's error identities (``step_signature``);
    empty when it passed or names no failing step."""
    if result.passed:
        return ()
    step = next((s for s in result.steps if s.status in ("fail", "error")), None)
    return step_signature(step.name, step.detail) if step is not None else ()


def signatures_by_key(keys: Iterable[str], cache_dir: Path) -> dict[str, tuple[str, ...]]:
    """{grading cache key: signature} of the cached grades found under ``cache_dir`` (the
    project's ``cache_dir``); a key with no cached grade is left out (its reader falls back to
    the failing step alone)."""
    from tuner.grading.cache import GradeCache

    wanted = sorted({k for k in keys if k})
    if not wanted:
        return {}
    cache = GradeCache(cache_dir / "grading")
    try:
        return {k: signature(hit) for k in wanted if (hit := cache.get(k)) is not None}
    finally:
        cache.close()
