"""Helpers the session tests import (a module of its own: every test folder's ``conftest`` is
called ``conftest``, so importing from one depends on which was loaded last)."""

from __future__ import annotations


def invoke(*args: str):
    from typer.testing import CliRunner

    from tuner.cli.main import app

    return CliRunner().invoke(app, list(args))


def add_tool_session(store, run_id: str) -> str:
    """Record a generation whose conversation has two user turns and a tool call (the runs the
    simulator makes have one turn); returns its session key."""
    from tuner.store import ResultRecord

    base = store.results(run_id)[0]
    messages = [
        base.messages[0],  # the system prompt, by hash
        {"role": "user", "content": "What is 2 + 2?"},
        {"role": "assistant", "content": "4"},
        {"role": "user", "content": "Look up the weather in Paris, then answer."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_w1", "type": "function", "function": {"name": "weather", "arguments": {"city": "Paris"}}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_w1", "content": '{"temp_c": 21}'},
    ]
    key = "sha256:" + "ab" * 32
    store.record_result(
        run_id,
        ResultRecord(
            eval_id=base.eval_id,
            category=base.category,
            sample_index=99,
            outcome="pass",
            output="It is 21 °C in Paris.",
            prompt_tokens=120,
            completion_tokens=9,
            cost_usd=0.00042,
            response_key=key,
            messages=messages,
            response_model="gpt-test",
        ),
    )
    return key


def link_compare(store, runs) -> str:
    """The session store's compare as a v4 experiment linking its four runs; returns its id. `tuner
    compare` records that experiment itself now; a store recorded before it did gets one here."""
    recorded = store.experiments("compare")
    if recorded:
        return recorded[0]["id"]
    by = {(r.model, r.set_name): r.id for r in runs}
    exp = "sha256:" + "c0" * 32
    store.start_experiment(exp, "none_vs_all-active", "compare", {"before": "none", "after": "all-active"})
    store.link_runs(exp, [by["sim/careful", "none"], by["sim/overeager", "none"]], "before")
    store.link_runs(exp, [by["sim/careful", "all-active"], by["sim/overeager", "all-active"]], "after")
    store.finish_experiment(exp, "finished", {"cells": []})
    return exp


GLYPHS_JS = """
() => {
  // Characters the viewer itself draws with no font glyph: drawn, they match the box a missing glyph
  // makes. Quoted content (answers, prompts, tasks, diffs: pre, code, .mono, .diff) is the model's or
  // the suite's text, shown as written whatever fonts the machine has, so it is left out.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let text = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement.closest('pre, code, textarea, script, style, .mono, .diff')) text += n.textContent;
  }
  const chars = [...new Set([...text])].filter(c => c.codePointAt(0) > 127 && !/\\s/.test(c));
  const font = getComputedStyle(document.body).font;
  const canvas = document.createElement('canvas'); canvas.width = 40; canvas.height = 40;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const draw = (c) => { ctx.clearRect(0, 0, 40, 40); ctx.font = font; ctx.fillStyle = '#000'; ctx.fillText(c, 4, 28);
                        return ctx.getImageData(0, 0, 40, 40).data.join(','); };
  const missing = new Set([draw('\\u{10FFFD}'), draw('\\u{10FFFC}'), draw('\\uFFFF')]);
  return chars.filter(c => missing.has(draw(c)));
}
"""


# --- the viewer in a real browser (test_browser*.py) -------------------------------------------------

import os as _os  # noqa: E402

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if _os.path.exists(p)), None)


def browser_marks() -> list:
    """Marks for a browser test module. CI installs Chromium (.ci/run), so there a missing browser
    fails instead of skipping."""
    import pytest

    return [
        pytest.mark.slow,
        pytest.mark.skipif(
            CHROMIUM is None and not _os.environ.get("CI"),
            reason="no system Chromium (apt-get install chromium; .ci/run and ./dev install it)",
        ),
    ]


def serve(root):
    """`tuner serve --port 0` in ``root`` as a user starts it; yields (login URL, base URL)."""
    import re
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "tuner.cli.main", "serve", "--port", "0"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_os.environ.copy(),
    )
    try:
        login = None
        deadline = time.monotonic() + 60
        while login is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            m = re.search(r"(http://127\.0\.0\.1:\d+)/login\?token=\S+", line)
            login = m and (m.group(0), m.group(1))
        assert login, proc.stderr.read() if proc.poll() is not None else "no login URL printed"
        yield login
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def launch(playwright):
    """Debian's Chromium, headless, as the viewer tests drive it."""
    assert CHROMIUM, "no system Chromium: .ci/run installs it with apt"
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    )
