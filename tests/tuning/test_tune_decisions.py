"""`tune` with defaults never offers a winner whose evidence points down (issue 19.1), and offers a
clear one that `publish` then ships without --force (issue 28.11), on the Python suite whose
simulator plants `py.lower-is-enough` as harmful to `text` and `py.copy-inputs` as the cure of a
`data` gap (and, in a copy, the same cure breaking `text`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]

HARMFUL = "py.lower-is-enough"


@pytest.fixture
def py_suite(py_suite) -> str:
    """The shared Python-suite project (tests/conftest.py), named by path as `--suite` takes it."""
    return str(py_suite)


def test_tune_data_with_defaults_offers_only_a_winner_with_clean_evidence(cli, py_suite):
    r = cli("tune", "--suite", py_suite, "--category", "data", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert HARMFUL not in data["best_selection"]
    added = sorted(set(data["best_selection"]) - set(data["baseline_selection"]))
    assert added == ["py.copy-inputs"]
    assert data["decision"] == "accepted" and data["accepted"] is True
    # The default flow screens the pool on the target's evals with the rule-effect engine, takes the
    # changes its verdicts support, and keeps to the plan it printed (issue 22).
    assert data["screening"]["design"] == "effects" and data["screening"]["chosen_by"] == "decided"
    assert data["screening"]["changes"] == ["add py.copy-inputs"]
    copy = [e for e in data["rule_effects"] if e["rule"] == "py.copy-inputs"]
    assert [e["verdict"] for e in copy] == ["helps"] and copy[0]["category"] == "data"
    assert data["evidence"]["design"] == "screening" and data["evidence"]["calls"] == 0  # no separate evidence step
    phases = data["plan"]["phases"]
    assert (
        data["plan"]["calls_always"]
        == sum(p["calls"] for p in phases if not p["only_if"])
        < data["plan"]["calls_at_most"]
    )
    # the calls the design made (replays from the shared cache included, which cost nothing)
    made = data["screening"]["calls"] + data["confirmation"]["calls"]
    assert made <= data["plan"]["calls_at_most"]
    # Within 10% of the phases that ran (a check phase for each pair of trials it ran, the
    # confirmation when it ran), unless a phase ended sooner because its question was answered.
    checks = [p["calls"] for p in phases if p["name"].startswith("regression check")]
    ran = (
        data["plan"]["calls_always"]
        + sum(checks[: max(0, data["screening"]["checked"] - 1)])
        + (phases[-1]["calls"] if data["confirmation"]["design"] != "none" else 0)
    )
    assert data["screening"]["checked"] == 2 and data["confirmation"]["design"] != "none"
    early = data["screening"]["engine"]["stopped"] == "enough" or data["confirmation"]["stopped"] == "decided"
    assert made <= ran and (made >= 0.9 * ran or early), (made, ran)
    assert data["calls"] == data["spent"]["calls"] <= made  # the report counts every paid call, the baseline's too
    assert data["publish_command"].startswith("tuner publish --from " + data["study"])
    for cell in data["acceptance"]["cells"]:  # nothing the decision read shows a drop
        assert cell["check"] in ("improved", "no gain", "no drop shown"), cell
    # Every category was measured again on fresh samples, and judged (issue 28.2).
    assert {r["category"] for r in data["fresh"]} == {"data", "text"}
    assert {(d["category"], d["evals"]) for d in data["acceptance"]["drops"]} == {
        ("text", "tuning + held-out"),
        ("data", "held-out"),
    }
    # The claim says where it was measured (issue 28.5); publish ships it without --force (28.11).
    assert [c["tuning_evals"]["verdict"] for c in data["acceptance"]["claim"]] == ["improved"]
    published = cli("publish", "--suite", py_suite, "--json")
    assert published.exit_code == 0, published.output
    assert json.loads(published.stdout)["manifest"]["gate"]["accepted_by_tune"] is True
    # The study is recorded as a finished experiment linked to its trial and confirmation runs; the
    # screening's observations are points of the experiment, not runs (schema v5); the baseline runs are
    # linked too (parts of it, never listed as runs of their own).
    from tuner.store import Store

    store = Store.open(f"sqlite:///{Path.cwd() / 'experiments' / 'tuner.db'}", create=False)
    try:
        [exp] = store.experiments("tune")
        roles = {role for _, role in store.experiment_runs(exp["id"])}
        points = store.design_points(exp["id"])
    finally:
        store.close()
    assert exp["status"] == "finished" and exp["name"] == data["study"] and roles == {"baseline", "trial", "confirm"}
    assert len(points) == data["screening"]["engine"]["calls"] > 0


def test_a_cure_that_breaks_another_category_is_not_offered(cli, py_suite):
    """A copy of the suite whose simulated model, given `py.copy-inputs`, also returns None from most
    `text` functions: the change that cures `data` is refused for the drop it causes in `text`."""
    import yaml

    path = Path(py_suite) / "sim" / "profiles.yaml"
    profiles = yaml.safe_load(path.read_text())
    profiles["profiles"]["careful"]["side_effects"] = [
        {
            "id": "careful.copies-too-much",
            "description": "Over-applies copy-inputs: text functions return None.",
            "rule_cue": "do not change the arguments a caller passes in",
            "categories": ["text"],
            "probability": 0.9,
            "trigger": "^def ",
            "transform": [{"pattern": r"^(\s*)return (.+)$", "replace": r"\1return None"}],
        }
    ]
    path.write_text(yaml.safe_dump(profiles, sort_keys=False))
    r = cli("tune", "--suite", py_suite, "--category", "data", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["decision"] in ("no change", "withheld"), data["decision"]
    assert not data["accepted"] and data["publish_command"] is None
    assert any("text" in reason for reason in data["acceptance"]["reasons"]), data["acceptance"]["reasons"]
    refused = cli("publish", "--suite", py_suite, "--from", data["study"])
    assert refused.exit_code == 1 and "did not accept" in refused.output


def test_tune_text_with_defaults_says_nothing_qualifies_and_offers_no_publish(cli, py_suite):
    r = cli("tune", "--suite", py_suite, "--category", "text")
    assert r.exit_code == 0, r.output
    assert "decision: no change" in r.stdout and "publish the winner" not in r.stdout
    r = cli("tune", "--suite", py_suite, "--category", "text", "--json")
    data = json.loads(r.stdout)
    assert data["decision"] == "no change" and data["publish_command"] is None
    assert HARMFUL not in data["best_selection"]


def test_the_winner_is_assembled_from_the_screening_verdicts():
    """Decided changes in the right direction make the winner (a phrasing for a rule it keeps or adds,
    applied after the add); with nothing decided, the best bet beyond the zone's edge; a change whose
    verdict points the wrong way for any model is never taken."""
    from tuner.ablation import Effect
    from tuner.tuning.config import TuneConfig
    from tuner.tuning.records import Change, apply_changes
    from tuner.tuning.screen import assemble

    config = TuneConfig(
        category="c",
        models=[{"model": "m"}],
        samples=4,
        tolerance=0.15,
        baseline="b",
        baseline_selection={"keep": "default", "bad": "default"},
        pool=["keep", "bad", "new"],
        variants={"new": ["default", "terse"]},
        eval_ids=["c/1"],
    )

    def cell(rule, delta, verdict, p=1.0, model="m"):
        return Effect(rule=rule, model=model, category="c", delta=delta, lo=None, hi=None, p_value=p, verdict=verdict)

    moves, how = assemble(
        config,
        [
            cell("keep", 0.2, "helps"),
            cell("bad", -0.1, "hurts"),
            cell("new", 0.1, "helps"),
            cell("new@terse", 0.05, "helps"),
        ],
    )
    assert how == "decided"
    assert sorted((m.kind, m.rule) for m in moves) == [("add", "new"), ("drop", "bad"), ("variant", "new")]
    ordered = sorted(moves, key=lambda m: m.kind == "variant")
    assert apply_changes(config.baseline_selection, ordered) == {"keep": "default", "new": "terse"}
    # A second model that finds the same change harmful vetoes it.
    moves, _ = assemble(config, [cell("new", 0.1, "helps"), cell("new", -0.1, "hurts", model="m2")])
    assert moves == []
    # Nothing decided: the strongest evidence beyond +delta0 in the right direction, nothing below it.
    moves, how = assemble(
        config,
        [
            cell("new", 0.06, "undecided", p=0.2),
            cell("bad", -0.08, "undecided", p=0.1),
            cell("keep", -0.015, "undecided", p=0.01),
        ],
    )
    assert how == "promising" and moves == [Change(kind="drop", rule="bad")]
    moves, how = assemble(config, [cell("keep", 0.3, "helps"), cell("new", 0.01, "undecided", p=0.5)])
    assert (moves, how) == ([], "none")
