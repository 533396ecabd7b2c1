"""The reviewer's pages in a real browser (Debian's Chromium, headless, Playwright with the system
executable), on a store holding a compare, a tune, an ablation and an analysis: experiments home ->
ablation experiment -> rule page (from the heatmap) -> compare experiment -> side by side, then
every other page. On each page no character is drawn as a missing glyph, and a screenshot is taken
into $TUNER_SCREENSHOTS (default: the test's temporary folder, printed at the end)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sessionkit import GLYPHS_JS, browser_marks, invoke, launch, link_compare, serve

pytestmark = browser_marks()


@pytest.fixture
def stocked(env, store):
    """The recorded compare linked as an experiment, plus a small tune, an ablation and a failure analysis."""
    suite = str(env.root / "suites" / "python")
    exp = link_compare(store, env.runs)
    r = invoke(
        "ablate", "--suite", suite, "--design", "loo", "--category", "text", "-k", "1", "-m", "sim/careful", "--json"
    )
    assert r.exit_code == 0, r.output
    ablation = json.loads(r.stdout)
    r = invoke(
        "tune",
        "--suite",
        suite,
        "--category",
        "text",
        "--budget-calls",
        "100",
        "--samples",
        "1",
        "--confirm-budget",
        "40",
        "-m",
        "sim/careful",
        "--json",
    )
    assert r.exit_code == 0, r.output
    tune = json.loads(r.stdout)
    run = next(x for x in env.runs if x.model == "sim/overeager" and x.set_name == "none")
    r = invoke("analyze", run.id, "--suite", suite, "--json")
    assert r.exit_code == 0, r.output
    analysis = Path(json.loads(r.stdout)["report"])
    yield {"compare": exp, "ablation": ablation, "analysis": analysis, "run": run, "tune": tune}
    for path in (Path(ablation["report"]), analysis):  # the recorded project is shared by the session's tests
        for suffix in (".md", ".json", ".png"):
            path.with_suffix(suffix).unlink(missing_ok=True)


@pytest.fixture
def served(env, stocked):
    yield from serve(env.root)


def test_experiment_to_rule_to_side_by_side_with_no_missing_glyph(env, stocked, served, tmp_path, monkeypatch):
    from playwright.sync_api import expect, sync_playwright

    login, base = served
    shots = Path(os.environ.get("TUNER_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # Chromium writes its profile under $HOME
    seen: dict[str, list[str]] = {}

    def check(page, name: str) -> None:
        page.wait_for_load_state("load")
        seen[name] = page.evaluate(GLYPHS_JS)
        page.screenshot(path=str(shots / f"{len(seen):02d}-{name}.png"), full_page=True)

    ablation, compare = stocked["ablation"], stocked["compare"]
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            page.goto(login)
            expect(page.locator("h1")).to_have_text("Experiments")
            rows = page.locator("#experiments tr[data-kind]")
            expect(page.locator("#experiments tr[data-kind='compare']")).to_have_count(1)
            expect(page.locator("#experiments tr[data-kind='ablate']")).to_have_count(1)
            expect(page.locator("#experiments tr[data-kind='analyze']")).to_have_count(1)
            assert rows.count() >= 3
            check(page, "home")

            # experiment -> rule page, through the heatmap's rule labels
            page.click(f"a[href='/experiments/{ablation['id']}']")
            expect(page.locator("#answer")).to_be_visible()  # the answer first; every cell one click away
            page.click("details.chart-section summary >> nth=-1")
            expect(page.locator("svg#heatmap-0")).to_be_visible()
            check(page, "ablation")
            rule = sorted({e["rule"] for e in ablation["effects"]})[0]
            page.click(f"svg#heatmap-0 a[href='/rule/{rule}']")
            expect(page.locator("h1")).to_contain_text(rule)
            measured = [
                *ablation["effects"],
                *stocked["tune"]["rule_effects"],
            ]  # the tune measured its winner's rules too
            expect(page.locator("svg#forest circle")).to_have_count(
                sum(1 for e in measured if e["rule"] == rule and e["delta"] is not None)
            )
            check(page, "rule")

            # compare experiment -> side by side
            page.click("header a[href='/']")
            page.click(f"a[href='/experiments/{compare}']")
            expect(page.locator("table[data-role='before'] tr")).to_have_count(3)
            check(page, "compare")
            page.click("#pairs a >> nth=0")
            expect(page.locator("h1")).to_have_text("Side by side")
            expect(page.locator("#prompt-diff")).to_be_visible()
            assert page.locator("section.flip").count() >= 1
            expect(page.locator("section.flip .changed-step").first).to_contain_text("Step that changed")
            check(page, "side-by-side")

            # the tune: its history and the runs it made, reached from it
            page.click("header a[href='/']")
            page.click("#experiments tr[data-kind='tune'] a")
            expect(page.locator("h1")).to_contain_text(stocked["tune"]["study"])
            expect(page.locator("svg#tune-history circle")).to_have_count(2)
            expect(page.locator("#decision")).to_be_visible()
            page.click("#runs-trial summary")
            expect(page.locator("table[data-role='trial']")).to_be_visible()
            check(page, "tune")

            # every other page a reviewer opens
            run = stocked["run"]
            cat = "text"
            for name, url in [
                ("runs", "/runs"),
                ("run", f"/runs/{run.id}"),
                ("category", f"/runs/{run.id}/categories/{cat}"),
                ("rules", "/rules"),
                ("evals", "/evals?ready=all"),
                ("reports", "/reports"),
                (
                    "ablation-report",
                    "/reports/" + Path(ablation["report"]).relative_to(env.root / "reports").as_posix(),
                ),
                ("analysis-report", "/reports/" + stocked["analysis"].relative_to(env.root / "reports").as_posix()),
                ("leaderboard", "/leaderboard"),
            ]:
                page.goto(base + url)
                expect(page.locator("h1").first).to_be_visible()
                check(page, name)
            page.goto(base + f"/runs/{run.id}/categories/{cat}")
            page.click("#evals td a >> nth=0")
            expect(page.locator("section.card").first).to_be_visible()
            check(page, "eval")
        finally:
            browser.close()
    print(f"\nscreenshots: {shots}")
    assert {name: chars for name, chars in seen.items() if chars} == {}
    assert len(list(shots.glob("*.png"))) == len(seen) >= 15
