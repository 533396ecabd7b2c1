"""Colour means a verdict (issue 33): a design where every cell is undecided renders no cell, dot or
bar in a finding's colour, on any page that charts it (the ablation's heatmap, the tune's forest,
the rule page, the rule-effects matrix), and every open heatmap cell is grey with its interval.
The check is shown to fail when an open cell is painted as a finding."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")

FINDING = ("#15803d", "#b91c1c")  # helps / improved, hurts / regressed (tuner.web.charts)
RULES = ["actions.use-node-directive", "queries.use-index", "mutations.patch-not-replace"]


def _effects(verdict: str) -> list[dict]:
    # Large estimates either way: exactly what the former heatmap painted deep green and red.
    return [
        {
            "rule": r,
            "model": m,
            "category": c,
            "delta": d,
            "lo": d - 0.2,
            "hi": d + 0.2,
            "p_value": 0.3,
            "q_value": 0.6,
            "verdict": verdict,
            "tokens": 10,
            "calls": 40,
            "decided_round": None,
        }
        for r, d in zip(RULES, (0.14, -0.11, 0.3))
        for m in ("sim/careful", "sim/expert")
        for c in ("actions", "queries")
    ]


@pytest.fixture
def undecided(project_dir, tmp_path, monkeypatch):
    """A store holding an ablation and a tune whose every cell is undecided, and a logged-in viewer."""
    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.store import Store
    from tuner.web import Login, create_app

    monkeypatch.chdir(project_dir)
    store = Store.open(f"sqlite:///{tmp_path / 'tuner.db'}")
    effects = _effects("undecided")
    store.save_experiment(
        "sha256:" + "a1" * 32,
        "ablate-adaptive-all-active",
        "ablate",
        {"design": "adaptive"},
        result={
            "id": "sha256:" + "a1" * 32,
            "design": "adaptive",
            "effects": effects,
            "adaptive": {"stopped": "budget", "budget_calls": 600},
        },
    )
    store.save_experiment(
        "sha256:" + "b2" * 32,
        "tune-actions-b2b2",
        "tune",
        {"category": "actions", "baseline": "all-active"},
        result={
            "category": "actions",
            "baseline": "all-active",
            "rule_effects": effects,
            "evidence": {"design": "screening"},
            "baseline_selection": {},
            "best_selection": {},
            "acceptance": {"decision": "no change", "reasons": ["the screening decided no change"], "cells": []},
        },
    )
    with TestClient(create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1") as client:
        assert client.get("/login?token=t", follow_redirects=False).status_code == 303
        yield client
    store.close()


def _findings(html: str) -> list[str]:
    """Elements coloured as a finding: SVG fills and strokes in a finding's colour, and verdict classes."""
    svg = "".join(re.findall(r"<svg.*?</svg>", html, flags=re.S))
    painted = re.findall(r'(?:fill|stroke)="(#[0-9a-f]{6})"', svg)
    return [c for c in painted if c in FINDING] + re.findall(r'class="[^"]*\bv-(?:up|down)\b', html)


def _pages(client) -> dict[str, str]:
    pages = {
        name: client.get(url)
        for name, url in [
            ("ablation", "/experiments/sha256:" + "a1" * 32),
            ("tune", "/experiments/sha256:" + "b2" * 32),
            ("rule", f"/rule/{RULES[0]}"),
            ("effects", "/effects"),
            ("rules", "/rules"),
        ]
    }
    assert {n: r.status_code for n, r in pages.items()} == {n: 200 for n in pages}
    return {n: r.text for n, r in pages.items()}


def test_an_all_undecided_design_is_painted_as_no_finding(undecided):
    pages = _pages(undecided)
    assert {name: _findings(html) for name, html in pages.items()} == {name: [] for name in pages}
    heatmaps = re.findall(r'<svg[^>]*class="chart heatmap".*?</svg>', pages["ablation"], flags=re.S)
    cells = re.findall(
        r'<g class="cell" data-verdict="([^"]+)">.*?<rect [^>]*fill="(#[0-9a-f]{6})"/><text[^>]*>([^<]*)</text>',
        "".join(heatmaps),
    )
    assert len(cells) == len(RULES) * 2 * 2 and {(v, fill) for v, fill, _ in cells} == {("undecided", "#e5e7eb")}
    assert all(re.fullmatch(r"[+-]\d+\.\.[+-]\d+", shown) for _, _, shown in cells)  # its interval, not a bold estimate
    ablation = pages["ablation"]
    assert (
        "0 helps · 0 hurts · 0 no meaningful effect · 12 undecided" in ablation and 'id="nothing-decided"' in ablation
    )
    assert 'class="legend"' in ablation and "undecided or not significant: no finding" in ablation
    # The same page with decided cells does paint them: the colours are the verdicts', not absent.
    from tuner.web.charts import heatmap

    decided = {(e["rule"], e["category"]): e for e in _effects("helps")}
    assert FINDING[0] in str(heatmap(RULES, ["actions", "queries"], decided))


def test_the_check_catches_an_open_cell_painted_as_a_finding(undecided, monkeypatch):
    """The mutant: an undecided cell painted as a finding (as the former heatmap painted an undecided
    +14% green): the check above fails on every page that charts it."""
    import tuner.web.charts as charts

    def painted(verdict, _real=charts.verdict_class):
        return "up" if verdict == "undecided" else _real(verdict)

    monkeypatch.setattr(charts, "verdict_class", painted)
    pages = _pages(undecided)
    assert _findings(pages["ablation"]) and _findings(pages["tune"]) and _findings(pages["rule"])
