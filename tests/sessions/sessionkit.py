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
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "call_w1", "type": "function", "function": {"name": "weather", "arguments": {"city": "Paris"}}}]},
        {"role": "tool", "tool_call_id": "call_w1", "content": "{\"temp_c\": 21}"},
    ]
    key = "sha256:" + "ab" * 32
    store.record_result(run_id, ResultRecord(
        eval_id=base.eval_id, category=base.category, sample_index=99, outcome="pass", output="It is 21 °C in Paris.",
        prompt_tokens=120, completion_tokens=9, cost_usd=0.00042, response_key=key, messages=messages,
        response_model="gpt-test"))
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
