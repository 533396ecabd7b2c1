"""The viewer's pages (server-rendered HTML): login, runs → run → category → eval, reports, leaderboard,
and the Evals tab (sessions: filter, select, label, export)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from tuner.errors import NotFoundError
from tuner.hashing import short
from tuner.web.auth import COOKIE, current_session, viewer_session

__all__ = ["router", "LoginRequired"]

router = APIRouter()
PAGE = 50


class LoginRequired(Exception):
    def __init__(self, ended: bool = False):
        super().__init__("login required")
        self.ended = ended  # the browser showed a session that is over (expired, logged out, key revoked)


def require_login(request: Request) -> None:
    if not viewer_session(request):
        raise LoginRequired(ended=bool(request.cookies.get(COOKIE)))


Viewer = Depends(require_login)

# Offsets into pages of rows: larger ones are refused (400) before they reach the database, whose
# integers they would overflow.
MAX_OFFSET = 10_000_000


def _render(request: Request, name: str, status_code: int = 200, **context) -> HTMLResponse:
    from tuner.web.charts import legend, verdict_class

    # Colours of verdicts, the same in every chart, table and legend (tuner.web.charts).
    context.setdefault("legend", legend)
    context.setdefault("verdict_class", verdict_class)
    return request.app.state.templates.TemplateResponse(request, name, context, status_code=status_code)


def login_page(request: Request, *, spent: bool = False, note: str = "", status_code: int = 401) -> HTMLResponse:
    return _render(request, "login.html.j2", spent=spent, note=note, status_code=status_code)


@router.get("/login")
def login(request: Request, token: str = "") -> Response:
    session = request.app.state.login.redeem(token)
    if session is None or current_session(request, session) is None:
        return login_page(request, spent=True)
    return _logged_in(request, session, RedirectResponse("/", status_code=303))


def _logged_in(request: Request, session: str, response: Response) -> Response:
    request.app.state.login.end(request.cookies.get(COOKIE))  # a session this browser held before is over
    # Secure when a trusted TLS proxy says the browser came over HTTPS (`tuner serve --trusted-proxy`).
    response.set_cookie(
        COOKIE, session, httponly=True, samesite="strict", path="/", secure=request.url.scheme == "https"
    )
    return response


@router.post("/login/key")
async def login_with_key(request: Request) -> Response:
    """Log this browser in with an API key (`tuner keys create`): no restart, no printed link."""
    from tuner.apikeys import verify_key

    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return JSONResponse(
            {"error": 'send the key as JSON: {"key": "tk_..."} (Content-Type: application/json)'}, status_code=415
        )
    try:
        body = await request.json()
    except ValueError:
        body = None
    secret = body.get("key") if isinstance(body, dict) else None
    key = verify_key(request.app.state.store, secret.strip()) if isinstance(secret, str) and secret.strip() else None
    if key is None:
        return JSONResponse(
            {"error": "not a valid, unrevoked API key (create one with `tuner keys create NAME`)"}, status_code=401
        )
    return _logged_in(request, request.app.state.login.open_session(key.id), JSONResponse({"ok": True}))


@router.post("/login/another")
def login_another(request: Request) -> HTMLResponse:
    """A new one-time login link, shown to a browser that is already logged in (POST: a link is
    minted only by a deliberate click; the origin check keeps other pages, other local ports too,
    from asking). A session opened with an API key passes the key on: revoking it ends both."""
    session = current_session(request)
    if session is None:
        raise LoginRequired(ended=bool(request.cookies.get(COOKIE)))
    url = str(request.base_url).rstrip("/") + "/login?token=" + request.app.state.login.new_token(session.key_id)
    return _render(request, "login_link.html.j2", url=url, tab="")


@router.post("/logout")
def logout(request: Request) -> Response:
    """End this browser's session (its cookie is forgotten by the server and cleared here)."""
    request.app.state.login.end(request.cookies.get(COOKIE))
    response = login_page(request, note="Logged out: this browser's session has ended.", status_code=200)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=request.url.scheme == "https")
    return response


def _experiments_of(store, run_id: str) -> list[dict]:
    """The experiments that made or read this run (its way back up), with the run's role in each."""
    from tuner.store.experiments import experiments_of_run

    return experiments_of_run(store, run_id)


@router.get("/runs", dependencies=[Viewer])
def runs(
    request: Request,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    model: str | None = None,
    suite: str = "",
    every: Annotated[str, Query(alias="all")] = "",
) -> HTMLResponse:
    from tuner.web.data import known_models, runs_page
    from tuner.web.experiments import known_values

    store = request.app.state.store
    page = runs_page(
        store, offset=offset, limit=PAGE, model=model or None, suite=suite or None, include_parts=every == "1"
    )
    return _render(
        request,
        "runs.html.j2",
        page=page,
        model=model or "",
        suite=suite,
        every=every == "1",
        suites=known_values(store)["suites"],
        models=known_models(store),
        tab="runs",
    )


@router.get("/runs/{run_id}", dependencies=[Viewer])
def run(request: Request, run_id: str) -> HTMLResponse:
    store = request.app.state.store
    record = store.run(run_id)
    suite = request.app.state.suites.get(record.suite)
    order = suite.categories if suite else []
    cats = (record.summary or {}).get("categories", {})
    ordered = [c for c in order if c in cats] + sorted(set(cats) - set(order))
    from tuner.web.views import run_chart

    categories = [(c, cats[c]) for c in ordered]
    overall = (record.summary or {}).get("overall")
    return _render(
        request,
        "run.html.j2",
        run=record,
        categories=categories,
        chart=run_chart(categories, overall, record.id) if categories else None,
        experiments=_experiments_of(store, record.id),
        usage=request.app.state.usage.usage(store, [record.id])[record.id],
        overall=(record.summary or {}).get("overall"),
        calls=(record.summary or {}).get("calls"),
        suite=suite,
        tab="runs",
    )


@router.get("/runs/{run_id}/categories/{category}", dependencies=[Viewer])
def category(request: Request, run_id: str, category: str) -> HTMLResponse:
    from tuner.web.data import category_results, labels_for

    store = request.app.state.store
    record = store.run(run_id)
    evals = category_results(store, record.id, category)
    if not evals:
        raise NotFoundError(f"run {short(record.id)} has no results in category '{category}'")
    labels = labels_for(store, [r["response_key"] for rs in evals.values() for r in rs])
    return _render(request, "category.html.j2", run=record, category=category, evals=evals, labels=labels, tab="runs")


@router.get("/runs/{run_id}/evals/{eval_id:path}", dependencies=[Viewer])
def eval_page(request: Request, run_id: str, eval_id: str) -> HTMLResponse:
    from tuner.web.data import eval_results, file_diffs, labels_for

    store = request.app.state.store
    record = store.run(run_id)
    results = eval_results(store, record.id, eval_id)
    if not results:
        raise NotFoundError(f"run {short(record.id)} has no results for eval '{eval_id}'")
    suite = request.app.state.suites.get(record.suite)
    ev = next((e for e in suite.evals if e.id == eval_id), None) if suite else None
    reference = ev.answer_files() if ev else None
    samples = [
        {
            "result": r,
            "diffs": file_diffs(reference, r.files or {}) if reference is not None and r.files is not None else None,
        }
        for r in results
    ]
    from tuner.models.answers import stop_reason

    return _render(
        request,
        "eval.html.j2",
        run=record,
        eval_id=eval_id,
        category=results[0].category,
        ev=ev,
        suite=suite,
        stale=bool(suite and suite.hash != record.suite_hash),
        samples=samples,
        labels=labels_for(store, [r.response_key for r in results]),
        stop_reason=stop_reason,
        tab="runs",
    )


@router.get("/prompts/{prompt_hash}", dependencies=[Viewer])
def prompt_page(request: Request, prompt_hash: str) -> HTMLResponse:
    from tuner.web.data import prompt

    return _render(request, "prompt.html.j2", prompt=prompt(request.app.state.store, prompt_hash), tab="runs")


@router.get("/leaderboard", dependencies=[Viewer])
def leaderboard_page(request: Request) -> HTMLResponse:
    from tuner.leaderboard import leaderboard

    store = request.app.state.store
    boards = [
        (suite, leaderboard(store, suite.hash, [e.id for e in suite.evals])) for suite in request.app.state.suites.all()
    ]
    return _render(request, "leaderboard.html.j2", boards=boards, tab="leaderboard")


@router.get("/reports", dependencies=[Viewer])
def reports(request: Request) -> HTMLResponse:
    from tuner.web.data import experiments, report_files

    return _render(
        request,
        "reports.html.j2",
        files=report_files(request.app.state.project.reports),
        experiments=experiments(request.app.state.store),
        tab="reports",
    )


@router.get("/reports/{path:path}", dependencies=[Viewer])
def report(request: Request, path: str) -> Response:
    file = _report_file(request.app.state.project.reports, path)
    if file.suffix != ".md":
        # Charts and JSON twins beside a report; a report's relative links land here.
        return _report_asset(file)
    from tuner.web.links import markdown

    # A report may quote model output and analyst text: shown as text, never as markup (no raw HTML),
    # and links and images only to the viewer's own pages and files (see links.markdown).
    text = file.read_text(encoding="utf-8", errors="replace")
    body = markdown().render(text)
    from tuner.web.data import report_run, resolve_run_prefixes
    from tuner.web.links import compare_pairs, link_flips, link_report

    store = request.app.state.store
    pairs = compare_pairs(text)
    if pairs:
        full = resolve_run_prefixes(store, {p for pair in pairs.values() for p in pair})
        body = link_flips(
            body, {label: (full[b], full[a]) for label, (b, a) in pairs.items() if b in full and a in full}
        )
    body = link_report(
        body,
        resolve_runs=lambda ids: resolve_run_prefixes(store, ids),
        eval_ids=[e.id for suite in request.app.state.suites.all() for e in suite.evals],
        run_of_report=report_run(file),
        rule_ids=_rule_ids(request),
    )
    from tuner.web.data import report_twin
    from tuner.web.views import effects_heatmaps

    twin = report_twin(file)
    charts = effects_heatmaps(twin["effects"]) if twin and isinstance(twin.get("effects"), list) else []
    return _render(request, "report.html.j2", path=path, body=body, charts=charts, tab="reports")


# What the product writes beside its Markdown reports, served as what it is; anything else found in
# reports/ (a copied folder, a shared checkout) is offered as a download, never shown on this origin.
_REPORT_TYPES = {".png": "image/png", ".json": "application/json", ".svg": "image/svg+xml"}


def _report_file(reports: Path, path: str) -> Path:
    missing = NotFoundError(f"no report {path!r}")
    if not path or any(c < " " or c == "\x7f" for c in path):
        raise missing
    root = reports.resolve()
    try:
        file = (root / path).resolve()
        found = file.is_relative_to(root) and file.is_file()
    except (OSError, ValueError):  # a name too long, a loop of links
        raise missing from None
    if not found:
        raise missing
    return file


def _report_asset(file: Path) -> Response:
    from tuner.web.guard import REPORT_FILE_CSP

    # The sandbox policy holds even for a file that is not what its name says: an SVG's script does
    # not run, and nosniff keeps a .png or .json from being read as a page.
    headers = {"Content-Security-Policy": REPORT_FILE_CSP}
    kind = _REPORT_TYPES.get(file.suffix.lower())
    if kind is not None:
        return FileResponse(file, media_type=kind, headers=headers)
    return FileResponse(
        file,
        media_type="application/octet-stream",
        filename=file.name,
        content_disposition_type="attachment",
        headers=headers,
    )


def _rule_ids(request: Request) -> list[str]:
    from tuner.web.rules import all_rules

    return [r.id for r in all_rules(request.app.state.project, request.app.state.suites.all())]


@router.get("/evals", dependencies=[Viewer])
def evals_tab(
    request: Request,
    status: str = "",
    tag: str = "",
    model: str = "",
    category: str = "",
    outcome: str = "",
    run: str = "",
    ready: str = "yes",
    eval_id: Annotated[str, Query(alias="eval")] = "",
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> HTMLResponse:
    from tuner.sessions import STATUSES, list_sessions, session_filter
    from tuner.web.data import known_categories, known_models

    store = request.app.state.store
    chosen = {
        "status": status,
        "tag": tag,
        "model": model,
        "category": category,
        "outcome": outcome,
        "run": run,
        "ready": ready,
        "eval": eval_id,
    }
    filt = session_filter(
        status=status or None,
        tag=tag or None,
        model=model or None,
        category=category or None,
        outcome=outcome or None,
        run=run or None,
        eval=eval_id or None,
        ready={"yes": True, "no": False}.get(ready),
    )
    page = list_sessions(store, filt, limit=PAGE, offset=offset)
    from urllib.parse import urlencode

    query = {k: v for k, v in chosen.items() if v}
    return _render(
        request,
        "evals.html.j2",
        page=page,
        chosen=chosen,
        query=query,
        base_query=urlencode(query),
        statuses=STATUSES,
        models=known_models(store),
        categories=known_categories(store),
        tab="evals",
    )


@router.get("/sessions/{key}", dependencies=[Viewer])
def session_page(request: Request, key: str) -> HTMLResponse:
    from tuner.sessions import SessionFilter, conversations, iter_sessions, openai_messages, resolve_keys

    store = request.app.state.store
    [full] = resolve_keys(store, [key])
    [s] = iter_sessions(store, SessionFilter(keys=(full,)))
    [conv] = conversations(store, [s])
    return _render(request, "session.html.j2", s=s, messages=openai_messages(conv), conv=conv, tab="evals")
