"""The pages that answer: the experiments home, an experiment's page (its decision, verdicts or
cells first), a published version's gate, rule effects (which rules help which category), the
rules list, a rule's page, and comparing two runs side by side (issue 33). Every verdict shown is
the one its command recorded (``tuner.web.answers``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from tuner.errors import NotFoundError
from tuner.web.pages import MAX_OFFSET, Viewer, _render

__all__ = ["router"]

router = APIRouter()


@router.get("/", dependencies=[Viewer])
def home(
    request: Request,
    kind: str = "",
    suite: str = "",
    model: str = "",
    set_name: Annotated[str, Query(alias="set")] = "",
    status: str = "",
    since: str = "",
) -> HTMLResponse:
    """Experiments first: what a person started (compare, tune, ablate, analyze, plain runs), each
    with its answer and what it spent."""
    from tuner.web.data import known_models
    from tuner.web.experiments import ExperimentFilter, known_values, list_experiments, totals

    store = request.app.state.store
    filt = ExperimentFilter(kind=kind, suite=suite, model=model, set=set_name, status=status, since=since)
    from tuner.web.views import costs_chart

    suites = request.app.state.suites
    items = list_experiments(
        store,
        filt,
        cache=request.app.state.usage,
        suite_of=suites.suite_of,
        project=request.app.state.project,
        loaded_suites=suites.all(),
    )
    return _render(
        request,
        "home.html.j2",
        items=items,
        costs=costs_chart(items),
        chosen=filt,
        total=totals(items),
        known=known_values(store),
        models=known_models(store),
        tab="home",
    )


@router.get("/experiments/{exp_id}", dependencies=[Viewer])
def experiment_page(
    request: Request, exp_id: str, points: Annotated[int | None, Query(ge=0, le=MAX_OFFSET)] = None
) -> HTMLResponse:
    """An experiment, leading with its answer (what its command recorded it decided); its runs and
    design points follow, collapsed (the points' rows only when asked for: ``?points=N``)."""
    from tuner.web import answers
    from tuner.web.experiments import experiment_detail
    from tuner.web.points import design_points_view

    store, project = request.app.state.store, request.app.state.project
    detail = experiment_detail(store, exp_id, cache=request.app.state.usage)
    exp = detail["experiment"]
    answer = {
        "tune": lambda: answers.tune_answer(store, project, exp),
        "ablate": lambda: answers.ablate_answer(project, exp),
        "compare": lambda: answers.compare_answer(project, exp),
        "run": lambda: answers.run_answer(exp),
    }.get(exp["kind"], lambda: None)()
    return _render(
        request,
        "experiment.html.j2",
        **detail,
        answer=answer,
        charts=_experiment_charts(request, detail),
        pairs=_pairs(detail),
        design=design_points_view(store, exp["id"], offset=points or 0, rows=points is not None),
        tab="home",
    )


def _pairs(detail: dict) -> list[dict]:
    """Before/after runs of the same model (a compare), for the side-by-side page."""
    before = {x["run"].model_key: x["run"] for x in detail["by_role"].get("before", [])}
    out = []
    for x in detail["by_role"].get("after", []):
        b = before.get(x["run"].model_key)
        if b is not None:
            out.append(
                {
                    "before": b.id,
                    "after": x["run"].id,
                    "model_key": x["run"].model_key,
                    "label": f"{x['run'].model}: {b.set_name} -> {x['run'].set_name}",
                }
            )
    return out


def _experiment_charts(request: Request, detail: dict) -> list:
    from tuner.web.views import experiment_charts

    return experiment_charts(request.app.state.store, detail)


@router.get("/published/{name}/{version}", dependencies=[Viewer])
def published_page(request: Request, name: str, version: str) -> HTMLResponse:
    """A published version, leading with its publish gate's cells (its manifest is the record)."""
    from tuner.runs.usage import experiment_usage
    from tuner.web.published import published_version

    v = published_version(request.app.state.project, request.app.state.suites.all(), name, version)
    usage = experiment_usage(request.app.state.store, {"publish": v["run_ids"]}, cache=request.app.state.usage)[
        "publish"
    ]
    return _render(request, "published.html.j2", v=v, usage=usage, tab="home")


@router.get("/compare", dependencies=[Viewer])
def pick_runs(request: Request, before: str = "", after: str = "", model: str = "", suite: str = "") -> Response:
    """Pick any two runs (or the runs of two prompts) to see side by side."""
    from tuner.web.sidebyside import pick

    if before and after:
        store = request.app.state.store
        return RedirectResponse(f"/compare/{store.run(before).id}/{store.run(after).id}", status_code=303)
    return _render(request, "pick.html.j2", **pick(request.app.state.store, model=model, suite=suite), tab="compare")


@router.get("/compare/{before}/{after}", dependencies=[Viewer])
def side_by_side_page(
    request: Request,
    before: str,
    after: str,
    every: Annotated[str, Query(alias="all")] = "",
    category: str = "",
    flips: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> HTMLResponse:
    from tuner.web.sidebyside import side_by_side

    data = side_by_side(
        request.app.state.store, before, after, only_changed=every != "1", category=category or None, offset=flips
    )
    return _render(request, "sidebyside.html.j2", **data, tab="compare")


@router.get("/rule/{rule_id}", dependencies=[Viewer])
def rule_view(request: Request, rule_id: str) -> HTMLResponse:
    from tuner.web.rules import rule_page
    from tuner.web.views import effects_forest

    data = rule_page(
        request.app.state.store,
        request.app.state.project,
        request.app.state.suites.all(),
        rule_id,
        suite_of=request.app.state.suites.suite_of,
    )
    return _render(
        request,
        "rule.html.j2",
        **data,
        forest=effects_forest(data["effects"]) if data["effects"] else None,
        tab="rules",
    )


@router.get("/effects", dependencies=[Viewer])
def effects_page(request: Request, suite: str = "", model: str = "", category: str = "") -> HTMLResponse:
    """Rules x categories: the latest verdict of every rule in every category across experiments, per
    model, each with its source; a category's helping and hurting rules first."""
    from tuner.web.effects import effect_matrix, measured_effects

    suites = request.app.state.suites
    effects = measured_effects(request.app.state.store, request.app.state.project, suites.suite_of)
    known = suites.get(suite)
    matrix = effect_matrix(effects, suite=suite, model=model, order=known.categories if known else None)
    if category and category not in matrix["categories"]:
        raise NotFoundError(
            f"no rule effect measured in category '{category}'"
            + (f" (measured: {', '.join(matrix['categories'])})" if matrix["categories"] else "")
        )
    return _render(
        request,
        "effects.html.j2",
        matrix=matrix,
        category=category,
        suite=suite,
        model=model,
        suites=sorted({e["suite"] for e in effects if e.get("suite")}),
        models=sorted({e["model"] for e in effects}),
        tab="effects",
    )


@router.get("/rules", dependencies=[Viewer])
def rules_index(request: Request) -> HTMLResponse:
    from tuner.web.effects import effect_matrix, measured_effects, rule_summaries
    from tuner.web.rules import all_rules

    suites = request.app.state.suites
    matrix = effect_matrix(measured_effects(request.app.state.store, request.app.state.project, suites.suite_of))
    return _render(
        request,
        "rules.html.j2",
        rules=all_rules(request.app.state.project, suites.all()),
        effects=rule_summaries(matrix),
        tab="rules",
    )
