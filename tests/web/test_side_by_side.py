"""Two runs side by side (issue 21): flipped evals with both answers, the step that changed, the prompt diff."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


def _pair(env, model):
    runs = {(r.model, r.set_name): r for r in env.runs}
    return runs[model, "none"], runs[model, "all-active"]


def test_flips_answers_step_and_prompt_diff(viewer, env, store):
    before, after = _pair(env, "sim/careful")
    b = {(r.eval_id, r.sample_index): r for r in store.results(before.id)}
    a = {(r.eval_id, r.sample_index): r for r in store.results(after.id)}
    flips = [k for k in b if k in a and {b[k].outcome, a[k].outcome} == {"pass", "fail"}]
    assert flips, "the recorded compare has no flip for sim/careful"
    page = viewer.get(f"/compare/{before.id}/{after.id}")
    assert page.status_code == 200
    text = page.text
    up = sum(1 for k in flips if a[k].outcome == "pass")
    assert f"<b>{up}</b> fail to pass" in text and f"<b>{len(flips) - up}</b> pass to fail" in text
    eval_id, sample = flips[0]
    section = text[text.index(f'data-eval="{eval_id}"') :]
    section = section[: section.index("</section>")]
    from markupsafe import escape

    for r in (b[flips[0]], a[flips[0]]):
        first = next(line for line in (r.output or "").splitlines() if line.strip())
        assert str(escape(first)) in section
    failing = b[flips[0]] if b[flips[0]].outcome == "fail" else a[flips[0]]
    assert f"Step that changed: <b>{failing.failed_step}" in section
    # The prompts differ (no rules vs every active rule): the diff adds the rules' lines.
    diff = text[text.index('id="prompt-diff"') : text.index("</details>", text.index('id="prompt-diff"'))]
    assert diff.count('class="add"') > 3
    rows = text[text.index('<table id="evals">') :]
    assert rows[: rows.index("</table>")].count('class="flipped"') == len({k[0] for k in flips})
    every = viewer.get(f"/compare/{before.id}/{after.id}?all=1").text
    assert every.count("<tr") > text.count("<tr")


def test_unknown_run_is_404(viewer):
    assert viewer.get("/compare/deadbeefdead/beefdeadbeef").status_code == 404
