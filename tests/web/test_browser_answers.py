"""Issue 33's "done when", in a real browser (Debian's Chromium, headless, Playwright) after the
documented flows on the Python suite: from the home page, the tune's decision and its reason, and a
category's helping and hurting rules, are each visible within two clicks and above the fold; the
counts on the home page equal what the commands printed as spent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sessionkit import GLYPHS_JS, browser_marks, launch, serve

pytestmark = browser_marks()

VIEWPORT = {"width": 1300, "height": 900}


@pytest.fixture
def served(flows, monkeypatch):
    monkeypatch.setenv("TUNER_HOME", str(flows.root))
    monkeypatch.setenv("TUNER_DB", flows.url)
    monkeypatch.delenv("TUNER_SUITE", raising=False)
    yield from serve(flows.root)


def _above_the_fold(page, selector: str) -> None:
    from playwright.sync_api import expect

    element = page.locator(selector)
    expect(element).to_be_visible()
    box = element.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT["height"], (selector, box)


def test_the_answers_are_within_two_clicks_above_the_fold_and_home_counts_what_was_spent(
    flows, served, tmp_path, monkeypatch
):
    from playwright.sync_api import expect, sync_playwright

    login, base = served
    shots = Path(os.environ.get("TUNER_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # Chromium writes its profile under $HOME
    missing = {}
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(login)
            expect(page.locator("h1")).to_have_text("Experiments")
            for kind, spent in flows.spent.items():
                row = page.locator(f"#experiments tr[data-kind='{kind}']")
                expect(row.locator("td.calls")).to_have_text(f"{spent['calls']}")
                expect(row.locator("td.tokens")).to_have_text(f"{spent['tokens']:,}")
                expect(row.locator("td.cost")).to_have_text(spent["cost"])
            page.screenshot(path=str(shots / "home.png"))
            missing["home"] = page.evaluate(GLYPHS_JS)

            # One click: the tune's page, whose first screen holds the decision and why.
            page.click("#experiments tr[data-kind='tune'] td a")
            _above_the_fold(page, "#decision")
            _above_the_fold(page, "#reasons")
            decision = page.locator("#decision").inner_text()
            assert decision.split(": ", 1)[1].split(" (")[0] in flows.out["tune"]
            assert "data" in page.locator("#reasons li").first.inner_text()
            page.screenshot(path=str(shots / "tune.png"))
            missing["tune"] = page.evaluate(GLYPHS_JS)

            # Two clicks: Rule effects, then the category; its helping and hurting rules lead the page.
            page.click("header a[href='/']")
            page.click("header a[href='/effects']")
            page.click("#by-category a.category-link:text-is('data')")
            _above_the_fold(page, "#helps")
            _above_the_fold(page, "#hurts")
            assert page.locator("#helps a[href^='/rule/py.']").count() >= 1
            page.screenshot(path=str(shots / "category.png"))
            missing["category"] = page.evaluate(GLYPHS_JS)
        finally:
            browser.close()
    print(f"\nscreenshots: {shots}")
    assert {name: chars for name, chars in missing.items() if chars} == {}
