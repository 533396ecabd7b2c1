"""A person's path through the viewer in a real browser (Debian's Chromium, headless, driven by
Playwright with the system executable): log in with the link `tuner serve` prints, open a run,
label a session golden on its eval page, then download an export of it from the Evals tab."""

from __future__ import annotations

import json
import re

import pytest
from sessionkit import browser_marks, launch, serve

pytestmark = browser_marks()


@pytest.fixture
def served(env):
    yield from serve(env.root)


def test_label_golden_on_a_run_page_then_download_the_export(env, served, tmp_path, monkeypatch):
    from playwright.sync_api import expect, sync_playwright

    login, base = served
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # Chromium writes its profile under $HOME
    run = next(r for r in env.runs if r.model == "sim/careful" and r.set_name == "all-active")
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_context(accept_downloads=True).new_page()
            page.goto(login)
            expect(page.locator("h1")).to_have_text("Experiments")  # experiments first
            page.click("header a[href='/runs']")
            expect(page.locator("h1")).to_have_text("Runs")
            page.click(f"a[href='/runs/{run.id}']")
            expect(page.locator("h1")).to_contain_text(run.id[7:19])
            page.click(f"a[href='/runs/{run.id}/categories/text']")
            page.click("#evals a >> nth=0")
            sample = page.locator("section#sample-0")
            key = sample.get_attribute("data-session")
            sample.locator("select[name=status]").select_option("golden")
            expect(sample.locator("input[name=ready]")).to_be_checked()  # a review makes it eval-ready
            sample.locator("input[name=tags]").fill("browser, ui")
            sample.locator("textarea[name=expected_output]").fill("the answer we want")
            sample.locator("button[type=submit]").click()
            expect(sample.locator(".msg")).to_have_text("saved (1)")

            page.click("header a[href='/evals']")
            row = page.locator(f"tr[data-session='{key}']")
            expect(row.locator("td.status")).to_have_text("golden")
            expect(page.locator("input.pick")).to_have_count(1)  # only eval-ready sessions by default
            page.check("#select-all")
            expect(page.locator("#selected-count")).to_have_text("1 selected")
            page.select_option("#export-format", "text")
            with page.expect_download() as info:
                page.click("#export-selected")
            text_path = tmp_path / "export.txt"
            info.value.save_as(text_path)
            page.select_option("#export-format", "deepeval")
            with page.expect_download() as info:
                page.click("#export-all")
            deepeval_path = tmp_path / "export.json"
            info.value.save_as(deepeval_path)
        finally:
            browser.close()
    text = text_path.read_text(encoding="utf-8")
    assert text.startswith("## Session: 001-text/") and "· sim/careful · sample 0" in text.splitlines()[0]
    assert "**User:** " in text and "**Assistant:** (simulated by tuner sim/careful" in text
    assert text.rstrip().endswith("Status: golden | Tags: browser, ui")
    assert re.search(r"\nTokens: \d+ \| Cost: unknown \| Model: sim/careful\n", text)
    [case] = json.loads(deepeval_path.read_text(encoding="utf-8"))
    assert case["expected_output"] == "the answer we want" and case["retrieval_context"] == []
    from tuner.sessions import get_label
    from tuner.store import Store

    store = Store.open(env.url)
    try:
        label = get_label(store, key)
    finally:
        store.close()
    assert (label.eval_status, label.eval_ready, label.eval_tags) == ("golden", True, ["browser", "ui"])
