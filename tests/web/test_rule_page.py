"""The rule page and the ablation views (issue 21) on the recorded store plus a real ablation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sessionkit import invoke

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


@pytest.fixture
def ablated(env):
    """A leave-one-out ablation of the text category on the simulator (recorded as an experiment)."""
    r = invoke(
        "ablate",
        "--suite",
        str(env.root / "suites" / "python"),
        "--design",
        "loo",
        "--category",
        "text",
        "-k",
        "1",
        "-m",
        "sim/careful",
        "--json",
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    yield data
    for suffix in (".md", ".json", ".png"):  # the recorded project is shared by the session's tests
        Path(data["report"]).with_suffix(suffix).unlink(missing_ok=True)


def test_rule_page_text_versions_sets_and_effects_forest(viewer, ablated, store):
    effect = next(e for e in ablated["effects"] if e["delta"] is not None)
    rule = effect["rule"]
    page = viewer.get(f"/rule/{rule}")
    assert page.status_code == 200
    text = page.text
    from tuner.guidelines import load_guidelines
    from tuner.paths import find_project

    g = load_guidelines(find_project())
    current = g.library.get(rule)
    assert current.body.strip().splitlines()[0] in text.replace("&#39;", "'").replace("&#34;", '"')
    assert current.hash()[7:19] in text  # the version now
    assert "<b>all-active</b>" in text  # a set that holds it
    # Every effect of this rule in the ablation, in the forest plot and the table, with what decided it.
    mine = [e for e in ablated["effects"] if e["rule"] == rule]
    forest = text[text.index('id="forest"') : text.index("</svg>", text.index('id="forest"'))]
    assert forest.count("<circle") == sum(1 for e in mine if e["delta"] is not None)
    table = text[text.index('<table id="effects">') :]
    assert table[: table.index("</table>")].count("<tr>") == len(mine) + 1
    assert "fixed design: BH q = " in table
    assert f'href="/experiments/{ablated["id"]}"' in table


def test_unknown_rule_is_404(viewer):
    assert viewer.get("/rule/no.such-rule").status_code == 404


def test_ablation_experiment_and_report_show_an_svg_heatmap_linking_rules(viewer, ablated, env):
    page = viewer.get(f"/experiments/{ablated['id']}").text
    heat = page[page.index('id="heatmap-0"') :]
    heat = heat[: heat.index("</svg>")]
    rules = {e["rule"] for e in ablated["effects"]}
    assert all(f'href="/rule/{r}"' in heat for r in rules)
    assert "rotate(-45)" in heat  # column labels at an angle: long names never overlap
    rel = Path(ablated["report"]).relative_to(env.root / "reports").as_posix()
    report = viewer.get(f"/reports/{rel}").text
    assert 'id="heatmap-0"' in report and all(f'class="rule-link" href="/rule/{r}"' in report for r in rules)
    listing = viewer.get("/rules").text
    assert all(f'href="/rule/{r}"' in listing for r in rules)
