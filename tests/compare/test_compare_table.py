"""Pairing, the BH-adjusted table, verdicts, exit code, report and chart, on synthetic results."""

from __future__ import annotations

import pytest

from tuner.compare import (
    Comparison,
    SideInfo,
    build_cells,
    finalize,
    pair_results,
    rate_rows,
    render_markdown,
    write_atomic,
    write_chart,
)
from tuner.models import ModelSpec
from tuner.runs.pairing import Paired
from tuner.stats import bh_adjust
from tuner.store import ResultRecord


def res(eval_id: str, sample: int, outcome: str, category: str = "queries") -> ResultRecord:
    return ResultRecord(eval_id=eval_id, category=category, sample_index=sample, outcome=outcome)


def test_pairs_by_eval_and_position_after_offsets():
    before = [res("q/1", 0, "fail"), res("q/1", 1, "pass"), res("q/2", 0, "pass")]
    after = [res("q/1", 10, "pass"), res("q/1", 11, "pass"), res("q/2", 10, "fail")]
    p = pair_results(before, after, before_offset=0, after_offset=10)
    assert p.before == {"q/1": [False, True], "q/2": [True]}
    assert p.after == {"q/1": [True, True], "q/2": [False]}
    assert p.pairs == 3 and p.unpaired == 0


def test_infra_failures_drop_the_pair_and_are_counted():
    before = [res("q/1", 0, "infra"), res("q/1", 1, "pass"), res("q/1", 2, "fail")]
    after = [res("q/1", 0, "pass"), res("q/1", 1, "infra"), res("q/1", 2, "pass")]
    p = pair_results(before, after)
    assert p.before == {"q/1": [False]} and p.after == {"q/1": [True]}
    assert (p.infra_before, p.infra_after, p.unpaired) == (1, 1, 2)


def test_category_filter():
    before = [res("q/1", 0, "pass"), res("a/1", 0, "pass", "actions")]
    after = [res("q/1", 0, "fail"), res("a/1", 0, "pass", "actions")]
    assert pair_results(before, after, category="actions").before == {"a/1": [True]}


def test_rate_rows_exclude_infra_and_add_overall():
    rows = rate_rows(
        [res("q/1", 0, "pass"), res("q/1", 1, "infra"), res("a/1", 0, "fail", "actions")], ["queries", "actions"]
    )
    assert [r.category for r in rows] == ["queries", "actions", "overall"]
    assert rows[0].estimate.n == 1 and rows[0].infra == 1 and rows[-1].estimate.passes == 1
    assert all(r.estimate.lo <= r.estimate.rate <= r.estimate.hi for r in rows)


def _paired(before_pass: int, after_pass: int, tasks: int = 4, k: int = 6) -> Paired:
    """Each task: ``before_pass`` of k samples pass before, ``after_pass`` after, on disjoint positions."""
    b = {f"t{i}": [j < before_pass for j in range(k)] for i in range(tasks)}
    a = {f"t{i}": [j >= k - after_pass for j in range(k)] for i in range(tasks)}
    return Paired(before=b, after=a)


def _comparison(cells) -> Comparison:
    side = SideInfo(token="x", label="x", kind="set")
    return Comparison(
        before=side, after=side.model_copy(update={"token": "y", "label": "y"}), samples=6, category=None, cells=cells
    )


def test_bh_adjusts_across_the_whole_table_and_verdicts_follow():
    cells = build_cells(
        ModelSpec(model="sim/careful"),
        {"queries": _paired(6, 0), "actions": _paired(0, 6), "idioms": _paired(3, 3)},
        None,
    )
    done = finalize(cells)
    assert [c.q_value for c in done] == pytest.approx(bh_adjust([c.p_value for c in cells]))
    verdicts = {c.category: c.verdict for c in done}
    assert verdicts == {"queries": "regressed", "actions": "improved", "idioms": "no detectable change"}
    comparison = _comparison(done)
    assert comparison.exit_code == 1 and len(comparison.regressions) == 1
    assert comparison.simulated_models == ["sim/careful"]
    assert done[0].model_label == "sim/careful (simulator)"
    assert done[0].flips["t0"].pass_to_fail == 6


def test_bh_can_turn_a_lone_small_p_into_no_change():
    # One modest effect among many null cells: significant alone, not after adjusting for the family.
    lone = build_cells(ModelSpec(model="m/x"), {"c0": _paired(0, 6, tasks=1)}, None)
    assert lone[0].p_value < 0.05
    family = build_cells(
        ModelSpec(model="m/x"), {"c0": _paired(0, 6, tasks=1), **{f"c{i}": _paired(3, 3) for i in range(1, 8)}}, None
    )
    assert finalize(lone)[0].verdict == "improved"
    assert finalize(family)[0].verdict == "no detectable change"


def test_no_change_gives_exit_zero_and_overall_row_only_with_several_categories():
    one = build_cells(ModelSpec(model="m/x"), {"queries": _paired(3, 3)}, _paired(3, 3))
    assert [c.category for c in one] == ["queries"]
    two = finalize(
        build_cells(
            ModelSpec(model="m/x"), {"queries": _paired(3, 3), "actions": _paired(3, 3)}, _paired(3, 3, tasks=8)
        )
    )
    assert [c.category for c in two][-1] == "overall"
    assert _comparison(two).exit_code == 0


def test_json_shape():
    data = _comparison(
        finalize(build_cells(ModelSpec(model="sim/careful"), {"queries": _paired(6, 0)}, None))
    ).to_json()
    assert {
        "before",
        "after",
        "cells",
        "samples",
        "alpha",
        "exit_code",
        "regressions",
        "improvements",
        "simulated_models",
    } <= set(data)
    cell = data["cells"][0]
    assert {
        "model",
        "model_label",
        "simulated",
        "category",
        "before",
        "after",
        "delta",
        "lo",
        "hi",
        "p_value",
        "q_value",
        "verdict",
        "flips",
        "infra_before",
        "infra_after",
    } <= set(cell)
    assert set(cell["before"]) >= {"rate", "lo", "hi"} and data["exit_code"] == 1


def test_report_and_chart_are_written(tmp_path):
    comparison = _comparison(
        finalize(
            build_cells(
                ModelSpec(model="sim/careful"), {"queries": _paired(6, 0), "actions": _paired(1, 5)}, _paired(3, 3, 8)
            )
        )
    )
    chart = write_chart(comparison, tmp_path / "c.png")
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = render_markdown(comparison, "c.png")
    assert "**Regressed**" in text and "sim/careful (simulator)" in text and "![" in text and "Exit code: 1" in text
    write_atomic(tmp_path / "r.md", lambda p: p.write_text(text))
    assert (tmp_path / "r.md").read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.png", "r.md"]


def test_failed_write_leaves_nothing_behind(tmp_path):
    (tmp_path / "old.md").write_text("previous report")

    def boom(path):
        path.write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_atomic(tmp_path / "old.md", boom)
    with pytest.raises(RuntimeError):
        write_atomic(tmp_path / "new.md", boom)
    assert [p.name for p in tmp_path.iterdir()] == ["old.md"]
    assert (tmp_path / "old.md").read_text() == "previous report"
