"""How a Convex answer failed, read from its first failing step's detail (the kind's
``failure_signature``; ``tuner.grading.signature`` says what a signature is for).

The step's distinct error identities, normalized so two answers that fail the same way share them
whatever their line numbers, paths or wording:

    tests    ``tests:<failing test's full name>`` per failing test (the vitest reporter's ``✗ name`` lines)
    tsc      ``tsc:TS2345`` per diagnostic code
    eslint   ``eslint:<rule id>`` per rule (``parse`` for a parser error)
    bundle   ``bundle:<esbuild's message>`` per error, what it quotes left out
             (``bundle:Could not resolve ""``)
    others   the step alone (filesystem, codegen: their messages carry answer text)

A detail naming nothing recognizable (a hang, a test file that did not load, a detail cut before
the first name) is the step alone: coarser, never wrong.
"""

from __future__ import annotations

import re

__all__ = ["step_signature"]

_TSC_CODE = re.compile(r"\berror (TS\d+):")
# A finding's message may span lines; its rule id closes the last one ("... (@convex-dev/x)").
_ESLINT_RULE = re.compile(r"\(([@\w][\w@/.-]*)\)\s*$")
_BUNDLE_ERROR = re.compile(r":\d+:\d+: error: (.+)$")
_QUOTED = re.compile(r'"[^"]*"')
_TEST_NAME = re.compile(r"^✗ (.+?)\s*$")  # the vitest reporter's line per failing test


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
