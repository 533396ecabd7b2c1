"""Analyst text and grader messages in an analysis report are text, whatever they hold: rendered as
CommonMark (as the viewer, an editor's preview or a code host would), they make no image, link,
tag, heading or list, and a quoted answer cannot end its fenced block early."""

from __future__ import annotations

import re
from html import unescape

import pytest

HOSTILE = [
    "![track](http://127.0.0.1:9/t.png)",
    "[click me](https://evil.example/) and <https://evil.example/auto>",
    "<img src=x onerror=alert(1)> <script>alert(1)</script>",
    "[ref]: https://evil.example/def\n\n[ref]",
    "# A forged heading\n## Net impact\n- actionable failures: 0",
    "1. first\n> quoted\n---\n===",
    "\\`[x](http://evil.example)`",  # a backslash before a code span's backtick
    "`<https://evil.example/`>",
    "| a | b |\n|---|---|\n| c | d |",
    "````\n</code></pre><img src=x>\n````` and ``` and ~~~",
    'uses `v.string()` where `v.id("users")` was wanted; a | b; snake_case',
]


def _body(text: str) -> dict:
    verdict = {
        "eval_id": "001-text/001-slugify",
        "failed_step": "tests",
        "classification": "MODEL_FAULT",
        "error_line": text,
        "reasoning": text,
        "root_cause": text,
        "problematic": text,
        "expected": text,
        "raw": text,
    }
    return {
        "run_id": "sha256:" + "a" * 64,
        "model": "sim/careful",
        "date": "2026-01-01",
        "analyst": "sim/analyst",
        "simulated_analyst": False,
        "suite": "python",
        "set": "none",
        "prompt_hash": "sha256:" + "b" * 64,
        "totals": {"results": 2, "passed": 1, "failed": 1, "infra": 0, "pass_rate": 0.5},
        "failures": [
            {
                "category": "text",
                "eval_id": "001-text/001-slugify",
                "failed_samples": 1,
                "scored_samples": 1,
                "failed_step": "tests",
                "reason": text,
            }
        ],
        "by_step": {"tests": 1},
        "counts": {"MODEL_FAULT": 1},
        "verdicts": [verdict],
        "shared_causes": [{"cause": text, "evals": ["001-text/001-slugify", "001-text/002-title"]}],
        "harder_categories": [],
        "repeats": [
            {
                "eval_id": "001-text/001-slugify",
                "classification": "MODEL_FAULT",
                "earlier": [{"report": "x.md", "classification": "MODEL_FAULT"}],
                "recommendation": text,
            }
        ],
        "recommendations": [{"group": "eval improvements", "text": text}],
        "actionable": 0,
        "model_faults": 1,
        "unclassified": 0,
        "pass_rate_if_fixed": 0.5,
    }


def _renderers():
    from markdown_it import MarkdownIt

    from tuner.web.links import markdown

    # The viewer's own renderer, and plain CommonMark with tables and raw HTML allowed (what an
    # editor's preview does): the report must be safe in both, not only where the viewer filters.
    return [markdown(), MarkdownIt("commonmark", {"html": True}).enable("table")]


@pytest.mark.parametrize("text", HOSTILE)
def test_quoted_text_stays_text(text):
    from tuner.analysis.report import render_markdown

    md = render_markdown(_body(text))
    for renderer in _renderers():
        html = renderer.render(md)
        assert not re.search(r"<(img|a|script|blockquote|ol|hr)\b", html), html
        headings = re.findall(r"<h(\d)>(.*?)</h\1>", html)
        assert not [h for _, h in headings if "forged" in h] and [h for _, h in headings].count("Net impact") == 1, (
            headings
        )
        # Each fenced quote (problematic, expected, raw) holds the whole text: no fence ended early.
        blocks = re.findall(r"<pre><code>(.*?)</code></pre>", html, re.S)
        assert len(blocks) == 3, html
        assert all(unescape(b).rstrip("\n") == text.rstrip() for b in blocks)
        tables = html.count("<table>")
        assert tables == 4, tables  # the report's own: failures, steps, classifications (2); none made by the text


def test_plain_reasoning_reads_as_written():
    from markdown_it import MarkdownIt

    from tuner.analysis.report import _cell, _prose

    text = (
        'The model used `v.string()` where `v.id("users")` was wanted, so *every* insert failed; see snake_case_names.'
    )
    assert _cell(text, None) == text  # nothing to escape in ordinary prose
    html = MarkdownIt("commonmark").render(_prose("line one\n# not a heading\n2) not a list"))
    assert html == "<p>line one\n# not a heading\n2) not a list</p>\n"
