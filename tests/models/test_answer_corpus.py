"""Every real answer shape of the corpus gets the verdict a careful reader gives (issue 34)."""

from __future__ import annotations

import pytest
from answer_corpus import SHAPES, verdict_problems

from tuner.models import read_answer


def _read(shape):
    return read_answer(
        shape.text,
        extensions=shape.kind["extensions"],
        roots=shape.kind["roots"],
        reasoning=shape.provider_reasoning,
        tool_calls=shape.tool_calls,
        finish_reason=shape.finish_reason,
    )


@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_the_shape_gets_its_verdict(shape):
    assert verdict_problems(shape, _read(shape)) == []


def test_the_corpus_covers_the_issue():
    assert len([s for s in SHAPES if "tool" not in s.tags]) >= 25
    assert sum(s.files is None for s in SHAPES) >= 5  # failures whose reason must name the cause
