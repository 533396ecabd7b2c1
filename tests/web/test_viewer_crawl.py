"""Every route of the viewer and the API, logged in, with hostile path segments, query values and
bodies: nothing answers 500, and every answer carries the security headers.

The routes come from the app's own routers (a page added later is crawled too); each path parameter
takes a real value from the recorded store, then each hostile value in turn; each query parameter
the route declares (and the ones the API reads itself, and one it does not know) takes each hostile
value while the path is real."""

from __future__ import annotations

import re
from collections import Counter

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")

# As they appear in the URL (percent-escapes are sent as written). Query values: one of each kind
# (empty, NUL, bad UTF-8, markup, negative, past 64 bits, not finite, very long, a key's prefix);
# path segments get those and more ways of walking out of a folder or naming nothing.
QUERY_VALUES = [
    "",
    "%00",
    "%ff%fe",
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "-1",
    "99999999999999999999",
    "1e309",
    "x" * 5000,
    "sha256:",
    "'%20OR%201=1--",
]
HOSTILE = QUERY_VALUES + [
    "%00.md",
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "%2e%2e%2f%2e%2e%2fetc",
    "%E2%80%AE%C0%AF",
    "%0d%0aSet-Cookie:%20x=1",
    "%22",
    "%25",
    "NaN",
    "sha256:" + "0" * 64,
    "%5B%5D",
    "%F0%9F%98%80",
]
# Query parameters the API reads from the request itself (they are not in its signature).
API_PARAMS = {
    "/api/export": ("format", "status", "tag", "limit", "model", "category", "run", "eval", "outcome", "session"),
    "/api/sessions": ("status", "tag", "model", "category", "run", "eval", "outcome", "ready", "limit", "offset"),
}
BASE_QUERY = {"/api/export": "format=openai"}  # so the other parameters are reached
HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy")
BODIES = [
    b"",
    b"null",
    b"[]",
    b"{}",
    b'{"sessions": "x"}',
    b'{"sessions": [1]}',
    b'{"sessions": ["' + b"a" * 100_000 + b'"]}',
    b'{"sessions": ["sha256:' + b"0" * 64 + b'"], "status": {"$ne": 1}}',
    b'{"key": null}',
    b'{"key": "tk_' + b"0" * 12 + b"_" + b"A" * 40 + b'"}',
    b"\xff\xfe",
    b'{"sessions": ["sha256:' + b"0" * 64 + b'"], "add_tags": ["' + b"t" * 10_000 + b'"]}',
    b"{" * 10_000,
]


def _real_values(env, store) -> dict[str, str]:
    from sessionkit import link_compare

    from tuner.paths import find_project
    from tuner.sessions import list_sessions
    from tuner.web.data import Suites
    from tuner.web.rules import all_rules

    project = find_project()
    run = env.runs[0]
    result = store.results(run.id)[0]
    rules = all_rules(project, Suites(project).all())
    return {
        "exp_id": link_compare(store, env.runs),
        "run_id": run.id,
        "category": result.category,
        "eval_id": result.eval_id,
        "before": env.runs[0].id,
        "after": env.runs[1].id,
        "rule_id": rules[0].id,
        "prompt_hash": run.prompt_hash,
        "path": env.report.relative_to(env.root / "reports").as_posix(),
        "key": list_sessions(store, limit=1).items[0].key,
    }


def _routes():
    from tuner.web import api, pages

    return [r for router in (api.router, pages.router) for r in router.routes]


@pytest.fixture
def viewer(env, store):
    """The logged-in viewer, answering a crash with the 500 a browser would see (not raising it)."""
    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.web import Login, create_app

    with TestClient(
        create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1", raise_server_exceptions=False
    ) as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        yield c


def test_hostile_parameters_never_answer_500(viewer, env, store):
    real = _real_values(env, store)
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    pages = set()

    def get(url: str) -> None:
        r = viewer.get(url, follow_redirects=False)
        statuses[r.status_code] += 1
        missing = [h for h in HEADERS if h not in r.headers]
        if r.status_code >= 500 or missing:
            failures.append(f"{r.status_code} {url[:120]} missing={missing}")
        elif r.headers.get("content-type", "").startswith("text/html"):
            # A page's scripts carry this response's nonce (one without it would not run).
            nonce = re.search(r"'nonce-([^']+)'", r.headers["content-security-policy"]).group(1)
            strays = [t for t in re.findall(r"<script\b[^>]*>", r.text) if f'nonce="{nonce}"' not in t]
            if strays:
                failures.append(f"{url[:120]}: a script without the nonce {strays[:2]}")

    for route in _routes():
        if "GET" not in route.methods or route.path == "/login":
            continue  # /login is crawled last (a token spends; a hostile one must not log out)
        names = [p.name for p in route.dependant.path_params]

        def path(**given) -> str:
            out = route.path.replace(":path}", "}")
            for n in names:
                out = out.replace("{" + n + "}", given.get(n, real.get(n, "x")))
            return out

        pages.add(route.path)
        base = BASE_QUERY.get(route.path, "")
        get(path() + ("?" + base if base else ""))
        for n in names:
            for h in HOSTILE:
                get(path(**{n: h}))
        get(f"{path()}?{base + '&' if base else ''}zz=1")  # a parameter no route knows
        params = [p.alias for p in route.dependant.query_params] + list(API_PARAMS.get(route.path, ()))
        for q in params:
            for h in QUERY_VALUES:
                get(f"{path()}?{base + '&' if base else ''}{q}={h}")
            get(f"{path()}?{base + '&' if base else ''}{q}=1&{q}=2")
    posts = 0
    for url, kind in [
        ("/api/labels", "application/json"),
        ("/login/key", "application/json"),
        ("/api/labels", "application/x-www-form-urlencoded"),
        ("/login/another", "application/x-www-form-urlencoded"),
    ]:
        for body in BODIES:
            r = viewer.post(url, content=body, headers={"Content-Type": kind}, follow_redirects=False)
            statuses[r.status_code] += 1
            posts += 1
            if r.status_code >= 500 or [h for h in HEADERS if h not in r.headers]:
                failures.append(f"{r.status_code} POST {url} {body[:60]!r}")
    for h in HOSTILE:
        get(f"/login?token={h}")
    get("/login?token=a&token=b")
    print(
        f"\ncrawl: {len(pages)} GET routes, {sum(statuses.values())} requests ({posts} POST), statuses {dict(sorted(statuses.items()))}"
    )
    assert not failures, "\n".join(failures[:40])
    assert statuses[200] > 50 and viewer.get("/runs").status_code == 200  # still logged in: the pages were reached
