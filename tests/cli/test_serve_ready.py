"""`tuner serve` accepts a connection as soon as it has printed its URL (a script or browser that
connects at once must not be refused while the app is still loading)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request


def test_login_url_answers_the_moment_it_is_printed(tmp_path):
    env = {**os.environ, "TUNER_DB": f"sqlite:///{tmp_path / 'tuner.db'}"}
    env.pop("TUNER_SUITE", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tuner.cli.main", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        url = None
        for line in proc.stdout:
            m = re.search(r"http://127\.0\.0\.1:\d+/login\?token=\S+", line)
            if m:
                url = m.group(0)
                break
        assert url, proc.stderr.read()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        try:
            urllib.request.build_opener(NoRedirect).open(url, timeout=30)
            raise AssertionError("expected the login redirect")
        except urllib.error.HTTPError as e:
            assert e.code == 303  # logged in, not refused
    finally:
        proc.terminate()
        proc.wait(timeout=10)
