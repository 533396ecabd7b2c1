"""The export API (keys, parameters) and the viewer's pages, in process (FastAPI's TestClient)."""

from __future__ import annotations

import json

import pytest

# Starlette warns that its test client will move to another HTTP library; nothing to act on here.
pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


@pytest.fixture
def app(env, store):
    from tuner.paths import find_project
    from tuner.web import Login, create_app

    return create_app(store, find_project(), Login("test-login-token"))


@pytest.fixture
def client(app):
    from fastapi.testclient import TestClient

    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


@pytest.fixture
def viewer(client):
    r = client.get("/login?token=test-login-token", follow_redirects=False)
    assert r.status_code == 303
    return client


@pytest.fixture
def key(store):
    from tuner.apikeys import create_key

    return create_key(store, "tests").secret


def _auth(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def _ready(store, n: int = 2, **change) -> list[str]:
    from tuner.sessions import apply_labels, label_change, list_sessions

    keys = [s.key for s in list_sessions(store, limit=n).items]
    apply_labels(store, keys, label_change(**(change or {"status": "golden", "add_tags": ["t1"]})))
    return keys


def test_export_needs_a_valid_unrevoked_key(client, store, key):
    from tuner.apikeys import create_key, list_keys, revoke_key

    _ready(store)
    url = "/api/export?format=openai"
    missing = client.get(url)
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert "missing credentials" in missing.json()["error"]
    for wrong in (key[:-1] + ("A" if key[-1] != "A" else "B"), "tk_000000000000_" + "x" * 43, "nonsense", ""):
        r = client.get(url, headers=_auth(wrong))
        assert r.status_code == 401, wrong
    assert client.get(url, headers={"Authorization": f"Basic {key}"}).status_code == 401
    ok = client.get(url, headers=_auth(key))
    assert ok.status_code == 200 and ok.headers["x-tuner-sessions"] == "2"
    assert (
        len(ok.text.splitlines()) == 2 and 'attachment; filename="sessions-openai-' in ok.headers["content-disposition"]
    )
    other = create_key(store, "other").secret
    revoke_key(store, next(k.id for k in list_keys(store) if k.name == "tests"))
    assert client.get(url, headers=_auth(key)).status_code == 401
    assert client.get(url, headers=_auth(other)).status_code == 200


@pytest.mark.parametrize(
    "query, message",
    [
        ("", "format is required: one of deepeval, openai, text"),
        ("format=xml", "format 'xml': must be one of deepeval, openai, text"),
        ("format=text&status=great", "status 'great': must be one of golden, correct, incorrect, needs_review"),
        ("format=text&limit=0", "limit '0': must be a whole number from 1 to 100000"),
        ("format=text&limit=ten", "limit 'ten': must be a whole number"),
        ("format=text&tag=%22x%22", "tag '\"x\"'"),
        ("format=text&stauts=golden", "unknown parameter 'stauts'"),
        ("format=text&format=json", "parameter 'format' given 2 times"),
        ("format=text&session=abc", "session 'abc': not a session key"),
        ("format=text&outcome=maybe", "outcome 'maybe': must be one of pass, fail, infra"),
    ],
)
def test_bad_parameters_are_400_with_a_clear_message(client, key, query, message):
    r = client.get(f"/api/export?{query}", headers=_auth(key))
    assert r.status_code == 400 and message in r.json()["error"], r.text


def test_api_export_filters_match_the_library(client, store, key):
    from tuner.sessions import export_sessions, session_filter

    _ready(store, 3)
    _ready(store, 1, status="incorrect", add_tags=["t2"])
    for fmt in ("deepeval", "openai", "text"):
        for query, filt, limit in (
            (f"format={fmt}", None, None),
            (f"format={fmt}&status=golden&tag=t1&limit=1", session_filter(status="golden", tag="t1"), 1),
        ):
            r = client.get(f"/api/export?{query}", headers=_auth(key))
            assert r.status_code == 200
            want = export_sessions(store, fmt, filt, limit)
            assert r.text == want.text and r.headers["content-type"].startswith(want.media_type.split(";")[0])
    assert json.loads(client.get("/api/export?format=deepeval&status=incorrect", headers=_auth(key)).text)[0]["input"]


def test_labels_through_the_api_are_validated(client, store, key):
    from tuner.sessions import get_label, list_sessions

    s = list_sessions(store, limit=1).items[0]
    body = {"sessions": [s.key], "status": "golden", "add_tags": ["api"], "expected_output": "E"}
    assert client.post("/api/labels", json=body).status_code == 401
    assert client.post("/api/labels", data={"sessions": s.key}, headers=_auth(key)).status_code == 415
    bad = [
        ({**body, "status": "great"}, 400, "status 'great'"),
        ({**body, "sessions": []}, 400, "sessions: give a list"),
        ({**body, "colour": "red"}, 400, "unknown label field 'colour'"),
        ({**body, "sessions": ["sha256:" + "0" * 64]}, 404, "unknown session"),
        ({"sessions": [s.key]}, 400, "nothing to change"),
    ]
    for payload, code, message in bad:
        r = client.post("/api/labels", json=payload, headers=_auth(key))
        assert r.status_code == code and message in r.json()["error"], r.text
    assert get_label(store, s.key).eval_status == "needs_review"
    r = client.post("/api/labels", json=body, headers=_auth(key))
    assert r.status_code == 200 and r.json()["labelled"] == 1
    label = get_label(store, s.key)
    assert (label.eval_status, label.eval_ready, label.eval_tags, label.expected_output) == (
        "golden",
        True,
        ["api"],
        "E",
    )


def test_viewer_login_is_one_time_and_cookie_is_httponly(client):
    assert client.get("/runs").status_code == 401
    assert client.get("/login?token=wrong", follow_redirects=False).status_code == 401
    r = client.get("/login?token=test-login-token", follow_redirects=False)
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    assert client.get("/runs").status_code == 200
    client.cookies.clear()
    assert client.get("/login?token=test-login-token", follow_redirects=False).status_code == 401  # spent
    assert client.get("/api/export?format=text").status_code == 401


def test_pages_runs_to_eval_with_task_steps_and_diff(viewer, env, store):
    runs = viewer.get("/runs")
    assert runs.status_code == 200 and all(r.id[7:19] in runs.text for r in env.runs)
    run = next(r for r in env.runs if r.model == "sim/overeager" and r.set_name == "all-active")
    page = viewer.get(f"/runs/{run.id}")
    assert page.status_code == 200 and f"/runs/{run.id}/categories/data" in page.text
    cat = viewer.get(f"/runs/{run.id}/categories/data")
    assert cat.status_code == 200 and "002-data/001-merge-intervals" in cat.text
    failing = next(r for r in store.results(run.id) if r.outcome == "fail" and r.files)
    ev = viewer.get(f"/runs/{run.id}/evals/{failing.eval_id}")
    assert ev.status_code == 200
    from tuner.evals import load_suite

    task = load_suite(env.root / "suites" / "python").get(failing.eval_id).task
    assert task.splitlines()[0] in ev.text
    assert "Diff against the reference answer" in ev.text and 'class="del"' in ev.text and 'class="add"' in ev.text
    assert failing.failed_step in ev.text and f'data-key="{failing.response_key}"' in ev.text
    assert viewer.get(f"/runs/{run.id}/evals/nope/nothing").status_code == 404
    assert viewer.get("/runs/sha256:doesnotexist").status_code == 404


def test_reports_leaderboard_and_evals_tab(viewer, env, store):
    rel = env.report.relative_to(env.root / "reports").as_posix()
    listing = viewer.get("/reports")
    assert listing.status_code == 200 and f"/reports/{rel}" in listing.text and "compare" in listing.text
    report = viewer.get(f"/reports/{rel}")
    chart = env.report.with_suffix(".png").name
    assert report.status_code == 200 and f'<img src="{chart}"' in report.text and "<table>" in report.text
    png = viewer.get(f"/reports/{rel.rsplit('/', 1)[0]}/{chart}")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert viewer.get("/reports/../experiments/tuner.db").status_code == 404
    assert viewer.get("/reports/%2e%2e/experiments/panel.toml").status_code == 404
    board = viewer.get("/leaderboard")
    assert board.status_code == 200 and "sim/careful" in board.text and "python" in board.text
    _ready(store, 2)
    tab = viewer.get("/evals")
    assert tab.status_code == 200 and tab.text.count('class="pick"') == 2
    assert viewer.get("/evals?ready=all").text.count('class="pick"') == 32
    assert viewer.get("/evals?ready=all&model=sim/careful&category=text").text.count('class="pick"') == 8
    assert viewer.get("/evals?status=great").status_code == 400


def test_session_page_shows_the_whole_conversation(viewer, store):
    from sessionkit import add_tool_session

    key = add_tool_session(store, store.runs()[0].id)
    page = viewer.get(f"/sessions/{key[7:19]}")
    assert page.status_code == 200
    for text in (
        "What is 2 + 2?",
        "weather({&#34;city&#34;: &#34;Paris&#34;})",
        "(call_w1)",
        "It is 21 °C in Paris.",
        f'data-key="{key}"',
    ):
        assert text in page.text, text
    assert viewer.get("/sessions/" + "0" * 12).status_code == 404


@pytest.mark.parametrize(
    "query, message",
    [
        ("ready=maybe", "ready 'maybe': must be true or false"),
        ("limit=5000", "limit '5000': must be a whole number from 1 to 1000"),
        ("format=text", "unknown parameter 'format'"),
    ],
)
def test_sessions_api_bad_parameters(client, key, query, message):
    r = client.get(f"/api/sessions?{query}", headers=_auth(key))
    assert r.status_code == 400 and message in r.json()["error"], r.text


def test_sessions_api_pages_with_reviews(client, store, key):
    keys = _ready(store, 3)
    r = client.get("/api/sessions?ready=true&limit=2", headers=_auth(key))
    body = r.json()
    assert r.status_code == 200 and body["has_more"] and len(body["sessions"]) == 2
    assert {s["key"] for s in body["sessions"]} <= set(keys)
    assert all(s["label"]["eval_status"] == "golden" for s in body["sessions"])
