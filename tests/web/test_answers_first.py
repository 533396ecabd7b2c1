"""The viewer and the CLI lead with the answer (issue 33), over the documented flows on the Python suite
(`run`, `compare` reusing that run, `ablate --category data`, `tune --category data`, `analyze`):
counts and cost from one source, each experiment page leading with what it decided, rule effects
per category, and the side by side reachable from the UI."""

from __future__ import annotations

import json
import re

import pytest
from sessionkit import invoke

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


def _rows(page: str) -> dict[str, str]:
    table = page[page.index('<table id="experiments">') :]
    table = table[: table.index("</table>")]
    return {m.group(1): m.group(0) for m in re.finditer(r'<tr data-kind="([a-z]+)".*?</tr>', table, flags=re.S)}


def _cell(row: str, name: str) -> str:
    return re.search(rf'<td class="num {name}">([^<]*)', row).group(1)


def test_home_counts_equal_what_the_commands_printed_as_spent(flows, flows_viewer):
    page = flows_viewer.get("/").text
    rows = _rows(page)
    assert set(rows) == {"run", "compare", "ablate", "tune", "analyze"}, set(rows)
    shown = {
        k: {
            "calls": int(_cell(rows[k], "calls").replace(",", "")),
            "tokens": int(_cell(rows[k], "tokens").replace(",", "")),
            "cost": _cell(rows[k], "cost"),
        }
        for k in flows.spent
    }
    assert shown == flows.spent
    assert all(s["calls"] > 0 for s in flows.spent.values())  # answers were bought: the equality is not 0 == 0
    total = sum(s["calls"] for s in flows.spent.values())
    assert f"<b>{total:,}</b> provider calls" in page and "cost <b>$0.0000</b>" in page
    # The plain run stays listed as itself although the compare read it again; the compare says so.
    runs_cell = re.search(r'<td class="num runs">(.*?)</td>', rows["compare"], flags=re.S).group(1)
    assert runs_cell.startswith("1 ") and "+1 reused" in runs_cell and _cell(rows["run"], "runs").strip() == "1"
    assert _cell(rows["ablate"], "runs") == "0" and int(_cell(rows["ablate"], "points")) > 0
    assert (
        "python" in rows["ablate"] and "sim/careful" in rows["ablate"]
    )  # a design with no runs names its suite and model


def test_an_experiments_internal_runs_are_never_listed_as_its_own(flows, flows_viewer, monkeypatch):
    for k, v in flows.env.items():
        monkeypatch.setenv(k, v)
    listed = json.loads(invoke("runs", "list", "--json", "-n", "100").stdout)
    every = json.loads(invoke("runs", "list", "--json", "-n", "100", "--all").stdout)
    assert {r["set"] for r in listed} == {"all-active", "none"}, {r["set"] for r in listed}
    assert len(every) > len(listed)  # the tune's baseline, trials and confirmation, only with --all
    home = flows_viewer.get("/").text
    assert 'data-kind="run"' in home and home.count('data-kind="run"') == 1
    # The CLI's summaries and the viewer read the same figures: runs list's calls are the run page's.
    run = next(r for r in listed if r["id"] == flows.run)
    assert run["usage"]["calls"] == flows.spent["run"]["calls"] and run["usage"]["cost_usd"] == 0.0
    page = flows_viewer.get(f"/runs/{flows.run}").text
    assert f"{run['usage']['calls']} provider calls" in page and "cost <b>$0.0000</b>" in page


def _position(page: str, marker: str) -> int:
    assert marker in page, marker
    return page.index(marker)


def test_the_tune_page_leads_with_its_decision_and_reason(flows, flows_viewer):
    home = flows_viewer.get("/").text
    tune_row = _rows(home)["tune"]
    href = re.search(r'href="(/experiments/[^"]+)"', tune_row).group(1)
    page = flows_viewer.get(href).text
    decision = re.search(r'<p class="decision" id="decision">Decision: ([a-z ]+)', page).group(1).strip()
    assert decision in ("accepted", "withheld", "no change")
    assert decision in flows.out["tune"] and decision in tune_row  # the same decision as the CLI said, on home too
    reasons = re.findall(
        r"<li>(.*?)</li>", page[_position(page, 'id="reasons"') : _position(page, 'id="winner"')], flags=re.S
    )
    assert reasons and "data" in reasons[0]  # the reason names the category it is about
    # The answer comes before the charts, the runs and the design points, which are collapsed.
    assert (
        _position(page, 'id="answer"') < _position(page, 'id="about"') < _position(page, 'class="section runs-section"')
    )
    assert 'class="section runs-section" id="runs-trial" open' not in page
    assert 'id="design-points" open' not in page and 'class="points"' not in page
    assert 'href="/reports/tune/' in page
    if decision == "accepted":
        assert "publish --from" in page and "improved" in reasons[0]
    # A winner withheld by the margin: the page names the command whose cap rules it out, as the CLI did.
    said = "to rule it out everywhere" in " ".join(flows.out["tune"].split())
    assert said == ('id="margin-continue"' in page), (said, flows.out["tune"][-1500:])


def test_the_ablation_page_leads_with_its_verdict_counts_and_decided_cells(flows, flows_viewer):
    page = flows_viewer.get(
        re.search(r'href="(/experiments/[^"]+)"', _rows(flows_viewer.get("/").text)["ablate"]).group(1)
    ).text
    counts = re.search(r'id="verdict-counts">([^<]+)<', page).group(1)
    helps = int(re.search(r"(\d+) helps", counts).group(1))
    assert helps >= 1 and f"{helps} helps" in flows.out["ablate"]  # the CLI's own count line
    decided = page[_position(page, 'id="decided"') :]
    decided = decided[: decided.index("</table>")]
    assert decided.count('class="v-up"') == helps
    assert _position(page, 'id="answer"') < _position(page, "chart heatmap")


def test_the_compare_page_leads_with_its_per_category_table(flows, flows_viewer):
    page = flows_viewer.get(
        re.search(r'href="(/experiments/[^"]+)"', _rows(flows_viewer.get("/").text)["compare"]).group(1)
    ).text
    table = page[_position(page, 'id="compare-cells"') :]
    table = table[: table.index("</table>")]
    assert {"text", "data", "overall"} <= set(re.findall(r'data-category="([a-z_]+)"', table))
    assert "improved" in table or "no detectable change" in table
    assert re.search(r'href="/compare/sha256:[0-9a-f]{64}/sha256:[0-9a-f]{64}', table)


def test_rule_effects_answer_a_category_and_the_rules_list_has_an_effect_column(flows, flows_viewer):
    page = flows_viewer.get("/effects").text
    assert 'href="?category=data' in page
    data = flows_viewer.get("/effects?category=data").text
    helps = data[_position(data, 'id="helps"') : _position(data, 'id="hurts"')]
    found = set(re.findall(r'href="/rule/([^"]+)"', helps))
    assert found and all(r.startswith("py.") for r in found)
    assert "no rule decided to hurt" in data or 'id="hurts"' in data
    rules = flows_viewer.get("/rules").text
    assert all(re.search(rf'/rule/{re.escape(r)}".*?class="v-up">helps data', rules, flags=re.S) for r in found)
    assert flows_viewer.get("/effects?category=nosuch").status_code == 404


def test_side_by_side_flips_first_prompt_diff_collapsed_category_and_pages(flows, flows_viewer):
    compare = flows_viewer.get(
        re.search(r'href="(/experiments/[^"]+)"', _rows(flows_viewer.get("/").text)["compare"]).group(1)
    ).text
    href = re.search(r'href="(/compare/sha256:[0-9a-f]{64}/sha256:[0-9a-f]{64})', compare).group(1)
    page = flows_viewer.get(href).text
    assert 'id="prompt-diff"' in page and '<details class="section diff" id="prompt-diff">' in page  # collapsed
    if 'class="card flip"' in page:
        assert _position(page, 'class="card flip"') < _position(page, 'id="prompt-diff"')
    text = flows_viewer.get(href + "?category=text").text
    assert "<b>text</b>:" in text and all(e.startswith("001-text/") for e in re.findall(r'data-eval="([^"]+)"', text))
    assert flows_viewer.get(href + "?category=nosuch").status_code == 404
    picked = flows_viewer.get("/compare").text
    ids = re.findall(r'name="before" value="([^"]+)"', picked)
    assert len(ids) >= 2
    r = flows_viewer.get(f"/compare?before={ids[1]}&after={ids[0]}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/compare/{ids[1]}/{ids[0]}"


def test_the_cli_reads_at_80_columns(flows, monkeypatch):
    for k, v in flows.env.items():
        monkeypatch.setenv(k, v)
    listed = invoke("runs", "list").stdout
    assert max(len(line.rstrip()) for line in listed.splitlines()) <= 80 and "…" not in listed
    header = next(line for line in listed.splitlines() if " id " in f" {line} ")
    assert all(col in header for col in ("model", "set", "calls", "cost"))  # what was spent stays at any width
    wide = invoke("runs", "list", "--wide").stdout
    assert "k × evals" in wide and "status" in wide
    compare = flows.out["compare"]
    assert max(len(line.rstrip()) for line in compare.splitlines() if "━" not in line) <= 80  # progress bars aside
    assert "cate…" not in compare and "verd…" not in compare and "not shown at 80 columns" in compare
    assert " 1 calls" not in "".join(flows.out.values()) and " 1 provider calls" not in "".join(flows.out.values())
    analysis = flows.out["analyze"]
    assert len(analysis.splitlines()) <= 10 and "report: " in analysis and "# Failure analysis" not in analysis
