"""The ablation heatmap PNG (issue 21): its labels never overlap, however long or many."""

from __future__ import annotations

import random


def _report(n_rules: int, categories: list[str], models: list[str]):
    from tuner.ablation.ablate import AblationReport
    from tuner.ablation.effects import Effect

    rng = random.Random(3)
    rules = [f"functions.a-fairly-long-rule-name-{i:02d}" for i in range(n_rules)]
    effects = [
        Effect(
            rule=r,
            model=m,
            category=c,
            delta=rng.uniform(-0.5, 0.5),
            lo=-0.1,
            hi=0.1,
            p_value=0.5,
            verdict=rng.choice(["helps", "hurts", "undecided"]),
        )
        for r in rules
        for m in models
        for c in categories
    ]
    return AblationReport(
        id="x", design="loo", set_name="s", models=models, runs=1, samples=1, eval_ids=[], effects=effects, calls=0
    )


def _overlaps(boxes) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if boxes[i].overlaps(boxes[j])]


def test_tick_labels_do_not_overlap_each_other_or_the_next_panel():
    import matplotlib.pyplot as plt

    from tuner.ablation.report import heatmap_figure

    cats = [
        "fundamentals",
        "data_modeling",
        "queries",
        "mutations",
        "actions",
        "idioms",
        "clients",
        "components",
        "a_very_long_category_name_indeed",
    ]
    fig = heatmap_figure(_report(30, cats, ["sim/careful (simulator)", "openai/gpt-5-mini"]))
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        panels = fig.axes[:2]
        for ax in panels:
            ys = [t.get_window_extent(renderer) for t in ax.get_yticklabels()]
            assert not _overlaps(ys), "rule labels overlap"
            # Category labels are slanted (parallel lines of text): they clear each other when the
            # distance between neighbours, across the text, is at least the text's height.
            import math

            labels = ax.get_xticklabels()
            angle = math.radians(labels[0].get_rotation())
            height = labels[0].get_fontsize() * fig.dpi / 72
            xs = [ax.transData.transform((i, 0))[0] for i in range(len(labels))]
            gap = min(b - a for a, b in zip(xs, xs[1:]))
            assert gap * (math.sin(angle) if angle else 1) >= height or (
                not angle and not _overlaps([t.get_window_extent(renderer) for t in labels])
            ), "category labels overlap"
        # The second panel's rule labels stay clear of the first panel's cells.
        first = panels[0].get_window_extent(renderer)
        assert all(not first.overlaps(t.get_window_extent(renderer)) for t in panels[1].get_yticklabels())
    finally:
        plt.close(fig)
