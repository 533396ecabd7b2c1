"""The viewer against a page next door, a planted file, a revoked key and a stale session, in
process (FastAPI's TestClient); the real-browser half is test_browser_security.py, the
hostile-parameter crawl test_viewer_crawl.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest
from sessionkit import invoke

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")

HERE = "http://127.0.0.1"
IDLE, LIFETIME, LINK_TTL = 600.0, 3600.0, 300.0


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(env, store, clock):
    from tuner.paths import find_project
    from tuner.web import Login, create_app

    return create_app(store, find_project(), Login("t", idle=IDLE, lifetime=LIFETIME, link_ttl=LINK_TTL, clock=clock))


def _client(app):
    from fastapi.testclient import TestClient

    return TestClient(app, base_url=HERE)


@pytest.fixture
def viewer(app):
    with _client(app) as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        yield c


def _mint(client) -> str:
    """'Log in another browser': the path of the one-time link the page shows."""
    page = client.post("/login/another")
    assert page.status_code == 200, page.text
    link = re.search(r'<pre id="login-link">(\S+)</pre>', page.text).group(1)
    return link[link.index("/login?") :]


def _logged_in(client) -> bool:
    pages, api = client.get("/runs").status_code, client.get("/api/sessions?limit=1").status_code
    assert pages == api, (pages, api)  # the pages and the API agree on who is logged in
    return pages == 200


def test_revoking_a_key_ends_the_sessions_and_links_it_opened(app, store):
    from tuner.apikeys import create_key

    new = create_key(store, "laptop")
    with _client(app) as a, _client(app) as b, _client(app) as c, _client(app) as d:
        assert a.post("/login/key", json={"key": new.secret}).status_code == 200
        assert b.get(_mint(a), follow_redirects=False).status_code == 303  # a link the key's session minted
        unused = _mint(a)
        assert d.get("/login?token=t", follow_redirects=False).status_code == 303  # the printed link: no key behind it
        assert _logged_in(a) and _logged_in(b) and _logged_in(d)
        r = invoke("keys", "revoke", new.key.id)  # as a person does it, while the server runs
        assert r.exit_code == 0, r.output
        for client in (a, b):
            assert not _logged_in(client)
            assert client.post("/login/another").status_code == 401  # no new links after the revoke
            assert "session has ended" in client.get("/runs").text
        assert c.get(unused, follow_redirects=False).status_code == 401  # minted before the revoke, unused
        assert not _logged_in(c)
        assert _logged_in(d)  # other sessions go on
        assert a.post("/login/key", json={"key": new.secret}).status_code == 401


def test_every_page_carries_the_policy_and_its_scripts_the_nonce(viewer, app, env):
    from fastapi.testclient import TestClient

    pages = [viewer.get(u) for u in ("/", "/evals", "/runs", "/reports")]
    with TestClient(app, base_url=HERE) as stranger:
        pages.append(stranger.get("/runs"))  # the login page, 401
    nonces = []
    for r in pages:
        csp = r.headers["content-security-policy"]
        for part in (
            "default-src 'none'",
            "img-src 'self'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ):
            assert part in csp, (r.url, csp)
        assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        nonce = re.search(r"script-src 'nonce-([A-Za-z0-9_-]{20,})'", csp).group(1)
        scripts = re.findall(r"<script\b[^>]*>", r.text)
        assert scripts and all(f'nonce="{nonce}"' in s for s in scripts), (r.url, scripts)
        assert (r.headers["x-content-type-options"], r.headers["referrer-policy"], r.headers["x-frame-options"]) == (
            "nosniff",
            "same-origin",
            "DENY",
        )
        nonces.append(nonce)
    assert len(set(nonces)) == len(nonces)  # a fresh nonce per response
    refused = viewer.get("/runs", headers={"Host": "evil.example"})
    api = viewer.get("/api/sessions?limit=x")
    for r in (refused, api):
        assert (
            "frame-ancestors 'none'" in r.headers["content-security-policy"]
            and r.headers["x-content-type-options"] == "nosniff"
        )


def test_changes_from_another_origin_or_as_plain_text_are_refused(viewer, store):
    from tuner.apikeys import create_key
    from tuner.sessions import get_label, list_sessions

    key = list_sessions(store, limit=1).items[0].key
    change = {"sessions": [key], "status": "golden"}
    secret = create_key(store, "curl").secret
    next_door = {"Origin": "http://127.0.0.1:9999"}
    for headers in (
        next_door,
        {"Origin": "http://localhost"},
        {"Origin": "https://127.0.0.1"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "same-site"},
        {"Sec-Fetch-Site": "cross-site"},
    ):
        r = viewer.post("/api/labels", json=change, headers=headers)
        assert r.status_code == 403 and "another origin" in r.json()["error"], (headers, r.text)
    assert viewer.post("/login/another", headers=next_door).status_code == 403
    assert viewer.post("/logout", headers=next_door).status_code == 403
    assert viewer.post("/login/key", json={"key": secret}, headers=next_door).status_code == 403
    # The body a page elsewhere may send without asking (no preflight): text/plain.
    plain = {"Content-Type": "text/plain"}
    assert viewer.post("/api/labels", content=json.dumps(change), headers=plain).status_code == 415
    assert viewer.post("/login/key", content=json.dumps({"key": secret}), headers=plain).status_code == 415
    assert viewer.post("/login/key", data={"key": secret}).status_code == 415
    assert get_label(store, key).eval_status == "needs_review" and _logged_in(viewer)
    # The viewer's own pages (same origin) and curl with a bearer key (no Origin, no cookie) still work.
    same = viewer.post("/api/labels", json=change, headers={"Origin": HERE, "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200 and get_label(store, key).eval_status == "golden"
    assert viewer.post("/login/another", headers={"Origin": "http://127.0.0.1:80"}).status_code == 200
    from fastapi.testclient import TestClient

    with TestClient(viewer.app, base_url=HERE) as curl:
        r = curl.post(
            "/api/labels", json={"sessions": [key], "status": "correct"}, headers={"Authorization": f"Bearer {secret}"}
        )
        assert r.status_code == 200 and get_label(store, key).eval_status == "correct"
        assert curl.get("/api/export?format=text", headers={"Authorization": f"Bearer {secret}"}).status_code == 200


def test_a_host_the_server_does_not_answer_to_is_refused(viewer, env, store):
    from fastapi.testclient import TestClient

    from tuner.errors import InputError
    from tuner.paths import find_project
    from tuner.web import Login, create_app
    from tuner.web.guard import LOOPBACK_HOSTS, allowed_hosts

    for host in ("evil.example", "attacker.test:8765", "127.0.0.1.nip.io", "localhost.evil.example"):  # DNS rebinding
        r = viewer.get("/runs", headers={"Host": host})
        assert r.status_code == 400 and "Invalid host header" in r.text, host
    for host in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST"):
        assert viewer.get("/runs", headers={"Host": host}).status_code == 200, host
    assert allowed_hosts("127.0.0.1") == list(LOOPBACK_HOSTS) == allowed_hosts("::1")
    assert allowed_hosts("192.168.1.5", ["tuner.lan", "*.corp.example", "fd00::5"]) == [
        "192.168.1.5",
        "tuner.lan",
        "*.corp.example",
        "[fd00::5]",
    ]
    import socket

    wildcard = allowed_hosts("0.0.0.0")
    assert set(LOOPBACK_HOSTS) <= set(wildcard) and socket.gethostname().lower() in wildcard
    with TestClient(
        create_app(store, find_project(), Login("t"), allowed_hosts=["*.corp.example"]),
        base_url="http://tuner.corp.example",
    ) as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        assert c.get("/runs", headers={"Host": "127.0.0.1"}).status_code == 400
    with pytest.raises(InputError, match="a pattern is"):
        create_app(store, find_project(), Login("t"), allowed_hosts=["tuner.*"])


def test_sessions_expire_idle_and_absolute_links_lapse_and_logout_ends(app, clock):
    login = app.state.login
    with _client(app) as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        for _ in range(2):
            clock.now += IDLE - 1
            assert _logged_in(c)  # each request restarts the idle time
        clock.now += IDLE
        assert not _logged_in(c) and "session has ended" in c.get("/").text
    with _client(app) as c:
        assert c.get(f"/login?token={login.new_token()}", follow_redirects=False).status_code == 303
        opened = clock.now
        while clock.now + IDLE / 2 < opened + LIFETIME:
            clock.now += IDLE / 2
            assert _logged_in(c)
        clock.now = opened + LIFETIME
        assert not _logged_in(c)  # never idle, but past its lifetime
    with _client(app) as c:
        token = login.new_token()
        clock.now += LINK_TTL
        assert c.get(f"/login?token={token}", follow_redirects=False).status_code == 401  # unused too long
        fresh = login.new_token()
        clock.now += LINK_TTL - 1
        assert c.get(f"/login?token={fresh}", follow_redirects=False).status_code == 303
        cookie = c.cookies.get("tuner_viewer")
        r = c.post("/logout", headers={"Origin": HERE})
        assert r.status_code == 200 and "Logged out" in r.text and 'tuner_viewer=""' in r.headers["set-cookie"]
        assert not _logged_in(c)
        c.cookies.set("tuner_viewer", cookie)  # the old cookie, shown again
        assert not _logged_in(c)
    assert len(login._sessions) <= 1 and len(login._tokens) <= 1  # ended and expired ones are forgotten


def test_report_files_are_what_the_product_writes_or_a_download(viewer, env, tmp_path):
    import shutil

    planted = env.root / "reports" / "planted"
    planted.mkdir(parents=True)
    try:
        script = "<script>fetch('/api/sessions')</script>"
        (planted / "page.html").write_text(f"<html>{script}</html>")
        (planted / "image.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg">{script}</svg>')
        (planted / "chart.png").write_text(f"<html>{script}</html>")  # not what its name says
        (planted / "notes.txt").write_text("plain")
        (planted / "twin.json").write_text('{"a": 1}')
        (tmp_path / "secret.png").write_text("not in reports/")
        (planted / "outside.png").symlink_to(tmp_path / "secret.png")
        (planted / "report.md").write_text(
            "# R\n\n![t](http://127.0.0.1:9/track.png) ![c](chart.png) [out](https://evil.example/) "
            "<https://evil.example/> [w](//evil.example) [in](/runs) <img src=x onerror=alert(1)>\n"
        )
        for name, kind, attached in [
            ("page.html", "application/octet-stream", True),
            ("notes.txt", "application/octet-stream", True),
            ("image.svg", "image/svg+xml", False),
            ("chart.png", "image/png", False),
            ("twin.json", "application/json", False),
        ]:
            r = viewer.get(f"/reports/planted/{name}")
            assert r.status_code == 200 and r.headers["content-type"].startswith(kind), (name, r.headers)
            assert (
                r.headers["content-security-policy"].startswith("sandbox;")
                and "default-src 'none'" in r.headers["content-security-policy"]
            )
            assert r.headers.get("content-disposition", "").startswith("attachment") == attached, name
            assert r.headers["x-content-type-options"] == "nosniff"
        assert viewer.get("/reports/planted/outside.png").status_code == 404  # a link out of reports/
        body = viewer.get("/reports/planted/report.md").text
        body = body[body.index('<article class="report') :]
        assert '<img src="chart.png"' in body and '<a href="/runs">in</a>' in body
        assert "http://127.0.0.1:9/track.png" in body and not re.search(r"<(img|a)\b[^>]*(https?:)?//", body)
        assert "&lt;img src=x onerror=alert(1)&gt;" in body
    finally:
        shutil.rmtree(planted)


@pytest.mark.slow
def test_serve_warns_on_plain_http_and_believes_forwarded_headers_only_from_named_proxies(env, tmp_path):
    def start(*args: str):
        err = open(tmp_path / f"err{len(args)}", "w+")
        proc = subprocess.Popen(
            [sys.executable, "-m", "tuner.cli.main", "serve", "--port", "0", *args],
            cwd=env.root,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
        line = proc.stdout.readline() + proc.stdout.readline()
        m = re.search(r"http://[^/\s]+:(\d+)/login\?token=(\S+)", line)
        assert m, line + open(err.name).read()
        return proc, err, int(m.group(1)), m.group(2)

    import httpx

    def another_link(port: int, token: str, **headers) -> tuple[str, httpx.Response]:
        """Log in, then 'Log in another browser': (the login's Set-Cookie, the page with the link)."""
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers) as h:
            deadline = time.monotonic() + 30
            while True:
                try:
                    login = h.get(f"/login?token={token}", follow_redirects=False)
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline
                    time.sleep(0.2)
            assert login.status_code == 303, login.text
            cookie = login.headers["set-cookie"]
            # Sent by hand: a Secure cookie would not go back over this plain connection by itself.
            return cookie, h.post("/login/another", headers={"Cookie": cookie.split(";")[0]})

    proc, err, port, token = start("--host", "0.0.0.0", "--session-idle", "30m")
    try:
        cookie, r = another_link(port, token, **{"X-Forwarded-Proto": "https"})
        assert (
            r.status_code == 200 and 'id="login-link">http://127.0.0.1:' in r.text
        )  # a client's header is not believed
        assert "secure" not in cookie.lower()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    err.seek(0)
    warning = err.read()
    assert "plain HTTP" in warning and "TLS" in warning, warning
    proc, err, port, token = start("--trusted-proxy", "127.0.0.1", "--allowed-host", "tuner.example")
    try:
        cookie, r = another_link(port, token, **{"X-Forwarded-Proto": "https", "Host": "tuner.example"})
        assert r.status_code == 200 and 'id="login-link">https://tuner.example/login?token=' in r.text
        assert "secure" in cookie.lower()  # the proxy says the browser came over HTTPS
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    err.seek(0)
    assert "plain HTTP" not in err.read()
    for bad, message in [
        (("--session-idle", "soon"), "positive duration"),
        (("--trusted-proxy", "proxy.lan"), "IP address"),
        (("--link-expiry", "0"), "--link-expiry '0'"),
        (("--allowed-host", "tuner.*"), "a pattern is"),
    ]:
        r = invoke("serve", *bad)
        assert r.exit_code == 2 and message in r.output, r.output
