"""Charts of stored experiments and runs, built from what the store recorded.

- a run: pass rate per category with its 95% interval (the run's summary);
- a tune: the optimisation history (Optuna's trials, read from its tables in the same database when
  the study was stored there), parameter importance, and the winner's rule effects as a forest plot;
- an ablation: the rule x category effect matrix as a heatmap per model (rules link to their pages);
- a compare: the per-category change with its interval and verdict, per model.
"""

from __future__ import annotations

from markupsafe import Markup

from tuner.web.charts import (
    Interval,
    heatmap,
    history_chart,
    interval_chart,
    symmetric_range,
    verdict_class,
    verdict_colour,
)

__all__ = [
    "run_chart",
    "experiment_charts",
    "effects_heatmaps",
    "tune_history",
    "effects_forest",
    "costs_chart",
    "Chart",
]


def run_chart(categories: list[tuple[str, dict]], overall: dict | None, run_id: str) -> Markup:
    rows = [
        Interval(
            label=name,
            value=c.get("pass_rate"),
            lo=c.get("lo"),
            hi=c.get("hi"),
            note=f"{c.get('pass', 0)}/{c.get('pass', 0) + c.get('fail', 0)}",
            href=f"/runs/{run_id}/categories/{name}",
        )
        for name, c in categories
    ]
    if overall:
        rows.append(
            Interval(
                label="overall",
                value=overall.get("pass_rate"),
                lo=overall.get("lo"),
                hi=overall.get("hi"),
                note=f"{overall.get('pass', 0)}/{overall.get('pass', 0) + overall.get('fail', 0)}",
                colour="#111827",
            )
        )
    return interval_chart(rows, title="Pass rate per category (95% interval)", chart_id="pass-rates")


def effects_heatmaps(effects: list[dict], prefix: str = "") -> list[tuple[str, Markup]]:
    """One heatmap per model of rule x category effects, coloured by their recorded verdicts."""
    out = []
    for model in sorted({e["model"] for e in effects}):
        mine = [e for e in effects if e["model"] == model]
        rules = sorted({e["rule"] for e in mine})
        cats = sorted({e["category"] for e in mine})
        cells = {(e["rule"], e["category"]): e for e in mine}
        out.append(
            (
                f"Effect of each rule, {model}",
                heatmap(rules, cats, cells, row_href=lambda r: f"/rule/{r}", chart_id=f"{prefix}heatmap-{len(out)}"),
            )
        )
    return out


def _forest(effects: list[dict], title: str, chart_id: str) -> Markup:
    rows = [
        Interval(
            label=f"{e.get('rule', '')} · {e['category']} · {e['model']}".strip(" ·"),
            value=e.get("delta"),
            lo=e.get("lo"),
            hi=e.get("hi"),
            note=e.get("verdict") or "",
            colour=verdict_colour(e.get("verdict")),
            href=f"/rule/{e['rule']}" if e.get("rule") else None,
        )
        for e in effects
    ]
    r = symmetric_range([v for e in effects for v in (e.get("delta"), e.get("lo"), e.get("hi"))])
    return interval_chart(rows, lo=-r, hi=r, zero=0.0, title=title, chart_id=chart_id)


def costs_chart(items: list, top: int = 15) -> Markup | None:
    """Provider calls of the experiments listed (the most expensive first), with their cost."""
    spent = sorted((it for it in items if it.calls), key=lambda it: -it.calls)[:top]
    if not spent:
        return None
    rows = [
        Interval(
            label=f"{it.kind} {it.name}",
            value=it.calls,
            lo=0,
            hi=it.calls,
            note=f"{it.calls} calls, {it.cost}",
            href=it.href,
        )
        for it in spent
    ]
    return interval_chart(
        rows,
        lo=0,
        hi=max(it.calls for it in spent),
        title="Provider calls per experiment (cost at the right)",
        chart_id="costs",
        value_format=lambda v: f"{v:,.0f}",
    )


def effects_forest(effects: list[dict]) -> Markup:
    """A rule's measured effects, one row per category x model x source (the rule's page)."""
    rows = [
        Interval(
            label=f"{e['category']} · {e['model']} · {e['source']}",
            value=e.get("delta"),
            lo=e.get("lo"),
            hi=e.get("hi"),
            note=e.get("verdict") or "",
            colour=verdict_colour(e.get("verdict")),
            href=e.get("href"),
        )
        for e in effects
    ]
    r = symmetric_range([v for e in effects for v in (e.get("delta"), e.get("lo"), e.get("hi"))])
    return interval_chart(
        rows, lo=-r, hi=r, zero=0.0, title="Effect of including the rule on the pass rate", chart_id="forest"
    )


def _compare_sides(detail: dict) -> Markup | None:
    """Each model's before and after pass rate per category (the runs' own 95% intervals; the
    paired change and its verdict are in the compare report)."""
    before = {x["run"].model_key: x["run"] for x in detail["by_role"].get("before", [])}
    rows = []
    for x in detail["by_role"].get("after", []):
        a, b = x["run"], before.get(x["run"].model_key)
        if b is None:
            continue
        cats_b, cats_a = (b.summary or {}).get("categories", {}), (a.summary or {}).get("categories", {})
        for cat in [c for c in cats_b if c in cats_a] + ["overall"]:
            for name, run, c, colour in (
                ("before", b, cats_b.get(cat), "#6b7280"),
                ("after", a, cats_a.get(cat), "#1d4ed8"),
            ):
                c = c if cat != "overall" else (run.summary or {}).get("overall")
                if c:
                    rows.append(
                        Interval(
                            label=f"{a.model} · {cat} · {name}",
                            value=c.get("pass_rate"),
                            lo=c.get("lo"),
                            hi=c.get("hi"),
                            note=f"{c.get('pass', 0)}/{c.get('pass', 0) + c.get('fail', 0)}",
                            colour=colour,
                            href=f"/runs/{run.id}/categories/{cat}" if cat != "overall" else f"/runs/{run.id}",
                        )
                    )
    return (
        interval_chart(rows, title="Pass rate (95% interval): grey before, blue after", chart_id="compare-sides")
        if rows
        else None
    )


def tune_history(store, study_name: str) -> list[tuple[int, float | None]]:
    """(trial number, value) of a study whose Optuna tables live in the store's database."""
    from tuner.store.studies import trial_values

    return trial_values(store, study_name)


def _best_so_far(points: list[tuple[int, float | None]]) -> list[tuple[int, float]]:
    best, out = None, []
    for i, v in points:
        if v is not None and (best is None or v > best):
            best = v
            out.append((i, v))
    return out


class Chart(dict):
    """A chart on an experiment page: ``title``, ``svg``, ``open`` (shown, or collapsed under its
    title), ``legend`` (effect | change | None) and ``note``."""


def _chart(title: str, svg: Markup, *, open: bool = True, legend: str | None = None, note: str = "") -> Chart:
    return Chart(title=title, svg=svg, open=open, legend=legend, note=note)


def _effect_rows(effects: list[dict]) -> list[dict]:
    decided = [e for e in effects if verdict_class(e.get("verdict")) != "open"]
    return sorted(
        decided,
        key=lambda e: (verdict_class(e.get("verdict")) == "none", e.get("category", ""), -abs(e.get("delta") or 0)),
    )


def experiment_charts(store, detail: dict) -> list[Chart]:
    """The charts of an experiment, the decided first: an effects chart shows its decided cells, and
    every cell (the open ones grey, with their intervals) is one click away, collapsed."""
    exp = detail["experiment"]
    result = exp.get("result") or {}
    kind = exp["kind"]
    charts: list[Chart] = []
    if kind == "tune":
        effects = result.get("rule_effects") or []
        if effects:
            decided = _effect_rows(effects)
            what = "screening" if (result.get("evidence") or {}).get("design") == "screening" else "winner's rules"
            if decided:
                charts.append(
                    _chart(
                        f"Decided rule effects ({len(decided)} of {len(effects)} cells, the {what})",
                        _forest(decided, "Effect of including each rule: decided cells", "tune-decided"),
                        legend="effect",
                    )
                )
            charts.append(
                _chart(
                    f"Every rule effect of the {what} ({len(effects)} cells, {len(effects) - len(decided)} open)",
                    _forest(effects, "Effect of including each rule", "tune-effects"),
                    open=False,
                    legend="effect",
                )
            )
        points = tune_history(store, exp["name"])
        if len(points) > 1:
            charts.append(
                _chart(
                    "Optimisation history",
                    history_chart(
                        points,
                        best=_best_so_far(points),
                        title=f"Trials of {exp['name']}",
                        y_label="objective",
                        chart_id="tune-history",
                    ),
                    open=False,
                )
            )
        importance = result.get("importance") or {}
        if importance:
            top = max(importance.values()) or 1.0
            rows = [
                Interval(label=k, value=v, lo=None, hi=None, note=f"{v:.2f}", href=f"/rule/{k}")
                for k, v in sorted(importance.items(), key=lambda kv: -kv[1])
            ]
            charts.append(
                _chart(
                    "Parameter importance",
                    interval_chart(
                        rows,
                        lo=0.0,
                        hi=max(top, 1e-9),
                        percent=False,
                        title="Rule importance (Optuna)",
                        chart_id="importance",
                    ),
                    open=False,
                )
            )
    elif kind == "ablate" and result.get("effects"):
        effects = result["effects"]
        decided_rules = {
            (e["model"], e["rule"]) for e in effects if verdict_class(e.get("verdict")) in ("up", "down", "none")
        }
        # One category: the decided cells' table above says all a heatmap of them would.
        if decided_rules and len({e["category"] for e in effects}) > 1:
            for title, svg in effects_heatmaps(
                [e for e in effects if (e["model"], e["rule"]) in decided_rules], prefix="decided-"
            ):
                charts.append(
                    _chart(title.replace("Effect of each rule", "Rules with a decided cell"), svg, legend="effect")
                )
        for title, svg in effects_heatmaps(effects):
            charts.append(
                _chart(f"{title} (every rule; open cells grey, with their interval)", svg, open=False, legend="effect")
            )
    elif kind == "compare":
        cells = [c for c in result.get("cells") or [] if isinstance(c, dict) and "category" in c]
        if cells:
            rows = [
                {
                    "category": c["category"],
                    "model": c.get("model_label") or c.get("model", ""),
                    "delta": c.get("delta"),
                    "lo": c.get("lo"),
                    "hi": c.get("hi"),
                    "verdict": c.get("verdict"),
                }
                for c in cells
            ]
            charts.append(
                _chart(
                    "Change per category",
                    _forest(rows, "Change in pass rate, after minus before", "compare-forest"),
                    legend="change",
                )
            )
        sides = _compare_sides(detail)
        if sides is not None:
            charts.append(_chart("Pass rate per category, before and after", sides, open=not cells))
    return charts
