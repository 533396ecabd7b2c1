"""How the engine reads a design point (``tuner.ablation.reading``, ``tuner.grading.signature``):
its failure signature from the cached grade as the suite's kind reads it (Convex's
``failure_signature``), the same for a point replayed from the store as for a fresh one, and its
failing step alone when the grade is not cached or the kind names no identities."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tuner.ablation.reading import graded_points
from tuner.engine import Graded
from tuner.grading import GradeResult, StepResult
from tuner.grading.cache import GradeCache
from tuner.grading.signature import signature
from tuner.store import Store
from tuner.store.points import PointRecord
from tuner.suites import get_kind
from tuner.suites.convex.signature import step_signature

READER = get_kind("convex").failure_signature

TSC = (
    "convex/a.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'Id<\"t\">'.\n"
    "  Type 'string' is not assignable to type '{ __tableName: \"t\"; }'.\n"
    "convex/b.ts(3,1): error TS2345: Argument of type 'number' is not assignable.\n"
    "convex/b.ts(9,9): error TS7022: 'x' implicitly has type 'any'."
)


def _grade(key: str, step: str, detail: str) -> GradeResult:
    steps, seen = [], False
    for name in ("filesystem", "codegen", "bundle", "tsc", "eslint", "tests"):
        status = "skip" if seen else ("fail" if name == step else "pass")
        seen = seen or name == step
        steps.append(StepResult(name=name, status=status, detail=detail if name == step else ""))
    return GradeResult(eval_id="005-actions/001-a", passed=False, steps=steps, cache_key=key)


def _point(sample: int, outcome: str, step: str | None, key: str | None) -> PointRecord:
    return PointRecord(
        prompt_hash="sha256:p1",
        model_key="m",
        model="sim/careful",
        inputs_key="i",
        eval_id="005-actions/001-a",
        category="actions",
        sample_index=sample,
        dropped=["r.a"],
        outcome=outcome,
        failed_step=step,
        grade_key=key,
    )


def test_signatures_name_what_failed_without_lines_paths_or_answer_text():
    assert step_signature("tsc", TSC) == ("tsc:TS2345", "tsc:TS7022")
    lint = (
        "convex/x.ts:26:18: Database get call should include an explicit table name.\n\nNote: type-aware "
        "linting is not enabled (see https://x). (@convex-dev/explicit-table-ids)\n"
        "convex/y.ts:4:2: Avoid calling `.filter()` (see best practices). (@convex-dev/no-filter-in-query)"
    )
    assert step_signature("eslint", lint) == (
        "eslint:@convex-dev/explicit-table-ids",
        "eslint:@convex-dev/no-filter-in-query",
    )
    tests = "✗ a failed refresh   keeps the forecast\nSyntaxError: Unexpected token 'o', \"oops\"\n✗ b > returns 2\nError: x"
    assert step_signature("tests", tests) == ("tests:a failed refresh keeps the forecast", "tests:b > returns 2")
    bundle = 'convex/h.ts:1:27: error: Could not resolve "node:crypto"\n  note: built into node'
    assert step_signature("bundle", bundle) == ('bundle:Could not resolve ""',)
    assert step_signature("tests", "test_slug[a b]: AssertionError: assert 'x' == 'y'") == ("tests",)  # pytest's
    # Nothing recognizable (a hang, a module that did not load): the step alone.
    assert step_signature("tests", "timed out after 30s: the code hangs") == ("tests",)
    assert step_signature("codegen", "convex/x.ts: bad export") == ("codegen",)
    assert signature(_grade("k", "tsc", TSC), READER) == ("tsc:TS2345", "tsc:TS7022")
    assert signature(GradeResult(eval_id="e", passed=True, steps=[]), READER) == ()
    # A kind without a reader (pytest, C today): the step alone.
    assert signature(_grade("k", "tsc", TSC)) == ("tsc",)
    assert not hasattr(get_kind("pytest"), "failure_signature")


@pytest.mark.parametrize("reading", ["signature", "step"])
def test_a_replayed_point_is_read_as_the_fresh_one_and_a_missing_grade_falls_back_to_its_step(tmp_path, reading):
    cache = GradeCache(tmp_path / "cache" / "grading")
    cache.put(_grade("k1", "tsc", TSC))
    cache.close()
    fresh = [
        _point(0, "fail", "tsc", "k1"),
        _point(1, "fail", "tests", "k-not-cached"),
        _point(2, "pass", None, "k2"),
        _point(3, "infra", None, None),
        _point(4, "fail", "filesystem", None),  # an unreadable answer: failed before grading, no grade
    ]
    store = Store.open(f"sqlite:///{tmp_path / 'tuner.db'}")
    try:
        store.save_prompt(
            SimpleNamespace(hash="sha256:p1", set_name="s", template="default", rules=[], tokens=1, text="t")
        )
        store.save_experiment("x", "design", "ablate", {})
        store.record_points("x", fresh)
        replayed = sorted(store.design_points("x").values(), key=lambda p: p.sample_index)
    finally:
        store.close()
    assert [p.sample_index for p in replayed] == [0, 1, 2, 3, 4]
    as_fresh = graded_points([{"m": p} for p in fresh], tmp_path / "cache", reading, READER)
    assert graded_points([{"m": p} for p in replayed], tmp_path / "cache", reading, READER) == as_fresh
    first = ("tsc:TS2345", "tsc:TS7022") if reading == "signature" else ("tsc",)
    assert [g["m"] for g in as_fresh] == [
        Graded(False, first),
        Graded(False, ("tests",)),
        Graded(True),
        None,
        Graded(False, ("filesystem",)),
    ]
    # No cache folder at all: every failure read by its step, nothing raised.
    assert graded_points([{"m": fresh[0]}], tmp_path / "nowhere", reading, READER) == [{"m": Graded(False, ("tsc",))}]


def test_a_record_without_grade_fields_is_read_by_what_it_has(tmp_path):
    """A stand-in record (tune's test world) has neither ``grade_key`` nor always ``failed_step``."""
    records = [{"m": SimpleNamespace(outcome="fail", failed_step="tests")}, {"m": SimpleNamespace(outcome="fail")}]
    assert graded_points(records, tmp_path) == [{"m": Graded(False, ("tests",))}, {"m": Graded(False, ())}]
