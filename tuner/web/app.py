"""The viewer's FastAPI application (pages + API) over one store and one project."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates

from tuner.errors import InputError
from tuner.web import api, experiment_pages, guard, pages
from tuner.web.auth import Login
from tuner.web.data import Suites
from tuner.web.guard import LOOPBACK_HOSTS

__all__ = ["create_app"]

TEMPLATES = Path(__file__).parent / "templates"


def _templates() -> Jinja2Templates:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["j2", "html"], default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    from tuner.hashing import short

    env.filters["short"] = short
    env.filters["pct"] = lambda v: "n/a" if v is None else f"{v:.0%}"
    env.globals["model_label"] = _model_label
    from tuner.web.links import session_href

    env.globals["session_href"] = session_href
    return Jinja2Templates(env=env)


def _model_label(model: str, params: dict | None = None) -> str:
    from tuner.compare.rates import model_label

    return model_label(model, params)


def create_app(store, project, login: Login | None = None, *, allowed_hosts: Sequence[str] = LOOPBACK_HOSTS) -> FastAPI:
    """The app; ``login`` holds the one-time token (a new one when not given); ``allowed_hosts``:
    the Host header values it answers to (see ``tuner.web.guard.allowed_hosts``)."""
    app = FastAPI(title="tuner viewer", docs_url=None, redoc_url=None, openapi_url=None)
    guard.install(app, allowed_hosts)
    app.state.store = store
    app.state.project = project
    app.state.login = login or Login()
    app.state.suites = Suites(project)
    from tuner.runs.usage import UsageCache

    app.state.usage = UsageCache()
    app.state.templates = _templates()
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(experiment_pages.router)  # experiments, rule effects, side by side (issue 33)

    @app.exception_handler(pages.LoginRequired)
    def _login_required(request: Request, exc: pages.LoginRequired) -> HTMLResponse:
        note = (
            "This browser's session has ended (it expired, was logged out, or the API key that opened it "
            "was revoked): log in again."
            if exc.ended
            else ""
        )
        return pages.login_page(request, note=note)

    @app.exception_handler(api.ApiError)
    def _api_error(request: Request, exc: api.ApiError) -> JSONResponse:
        return api.error_response(exc)

    @app.exception_handler(InputError)
    def _input_error(request: Request, exc: InputError):
        if request.url.path.startswith("/api/"):
            return api.error_response(exc)
        from tuner.errors import NotFoundError

        code = 404 if isinstance(exc, NotFoundError) else 400
        return app.state.templates.TemplateResponse(
            request, "error.html.j2", {"message": str(exc), "tab": ""}, status_code=code
        )

    @app.exception_handler(RequestValidationError)
    def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())[1:]) or "request"
        return JSONResponse({"error": f"{where}: {err.get('msg')}"}, status_code=400)

    return app
