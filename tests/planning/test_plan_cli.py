"""Every command that calls models says, before the first call, what its budget decides; --decide
sizes the cap (on the Python suite, offline: --plan calls nothing)."""

import json
from pathlib import Path

import pytest


def test_ablate_plan_prints_the_mde_and_decide_sizes_the_cap(cli, py_project):
    r = cli("ablate", "--plan", "--model", "sim/careful", "--category", "text")
    assert r.exit_code == 0, r.output
    assert "decides: ablate: rule x model x category" in " ".join(r.stdout.split())
    assert "with 80% power" in " ".join(r.stdout.split())
    # The engine reads failure modes (on in ablate and tune); the figure printed is the pass bit's.
    assert "the pass bit's figure" in " ".join(r.stdout.split())
    plan = json.loads(cli("ablate", "--plan", "--json", "--model", "sim/careful", "--category", "text").stdout)
    printed = plan["decides"][0]["mde"]
    assert 0 < printed < 1 and plan["decide"] is None
    # Deciding an effect half that size needs a larger cap; --plan shows calls, tokens and cost per model.
    sized = json.loads(
        cli(
            "ablate",
            "--plan",
            "--json",
            "--model",
            "sim/careful",
            "--category",
            "text",
            "--decide",
            f"{printed / 2:.3f}",
        ).stdout
    )
    assert sized["decide"]["effect"] == pytest.approx(printed / 2, abs=0.001)
    assert sized["cap"]["calls"] == sized["decide"]["calls"] > plan["calls_at_most"]
    assert sized["decides"][0]["mde"] <= sized["decide"]["effect"]
    assert (
        sized["per_model"][0]["model"].startswith("sim/careful")
        and sized["per_model"][0]["calls"] == sized["calls_at_most"]
    )


@pytest.mark.parametrize("value", ["0", "-1", "1", "2", "eight"])
def test_a_bad_decide_is_one_line_and_exit_2(cli, py_project, value):
    r = cli("ablate", "--plan", "--model", "sim/careful", "--decide", value)
    assert r.exit_code == 2
    assert r.stderr.strip().count("\n") == 0 and "--decide" in r.stderr


def test_decide_and_a_cap_together_are_refused(cli, py_project):
    r = cli("tune", "-c", "text", "--plan", "--model", "sim/careful", "--decide", "0.2", "--budget-calls", "900")
    assert r.exit_code == 2 and "not both" in r.stderr


def test_a_confirmation_the_cap_cannot_pay_for_is_refused_before_any_call(cli, py_project):
    """A --confirm-budget beyond what the cap leaves after the screening's half: refused up front
    (it used to plan it, then stop mid-confirmation at the cap, exit 4); within it, the plan runs."""
    r = cli(
        "tune", "-c", "text", "--plan", "--model", "sim/careful", "--budget-calls", "600", "--confirm-budget", "301"
    )
    assert r.exit_code == 2 and r.stderr.strip().count("\n") == 0
    assert "--confirm-budget 301" in r.stderr and "--budget-calls 602" in r.stderr
    ok = cli(
        "tune", "-c", "text", "--plan", "--model", "sim/careful", "--budget-calls", "600", "--confirm-budget", "300"
    )
    assert ok.exit_code == 0, ok.output


def test_tune_plan_prints_the_screening_and_confirmation_mde(cli, py_project):
    r = cli("tune", "-c", "text", "--plan", "--json", "--model", "sim/careful")
    assert r.exit_code == 0, r.output
    decides = json.loads(r.stdout)["decides"]
    families = [d["family"] for d in decides]
    assert families == [
        "screening of text",
        "confirmation of the winner on text",
        "acceptance: a drop of more than 15 points ruled out elsewhere",
    ]
    # What the acceptance requires of the other categories, and what this cap's confirmation can show.
    assert decides[2]["questions"] == 1 and "samples per eval" in decides[2]["line"], decides[2]
    # The cap that shows it (``noninferior.margin_cap``): said, larger than this one, and at that cap
    # the plan says no larger one is needed.
    need = decides[2]["calls"]
    cap = json.loads(r.stdout)["cap"]["calls"]
    assert need is not None and need > cap, (need, cap)
    assert f"a cap of {need:,} calls shows it in all with 80% chance" in decides[2]["line"], decides[2]
    again = cli("tune", "-c", "text", "--plan", "--json", "--model", "sim/careful", "--budget-calls", str(need))
    assert json.loads(again.stdout)["decides"][2]["calls"] is None, again.stdout
    sized = json.loads(
        cli("tune", "-c", "text", "--plan", "--json", "--model", "sim/careful", "--decide", "0.25").stdout
    )
    assert sized["decides"][0]["mde"] <= 0.25 and sized["cap"]["calls"] == sized["decide"]["calls"]


def test_compare_plan_prints_the_mde_of_its_cells(cli, py_project):
    r = cli("compare", "--before", "none", "--after", "all-active", "--model", "sim/careful", "--plan", "--json")
    assert r.exit_code == 0, r.output
    (d,) = json.loads(r.stdout)["decides"]
    assert d["family"].startswith("compare") and d["questions"] >= 2


@pytest.mark.slow
def test_ablate_names_what_would_decide_it_and_that_command_decides_it_paying_only_the_difference(
    cli, py_project, shared_grading, tmp_path, monkeypatch
):
    """On sim/careful's `text`, 150 calls leave the planted cures undecided; the output names the
    calls each needs at its estimate and the command that goes on; run as printed (its cap), it
    decides the leading rule, and the calls already bought are not bought again (a fresh cache)."""
    import shlex

    # A response cache of its own: the session's shared one holds other tests' answers, which would
    # be replayed unpaid wherever their designs meet this one's.
    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_grading(tmp_path / "fresh-cache")))

    first = cli("ablate", "--category", "text", "--budget-calls", "150", "--model", "sim/careful", "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    leads, command = data["adaptive"]["leads"], data["adaptive"]["continue"]
    assert leads and leads[0]["calls"] > 150 and abs(leads[0]["delta"]) >= abs(leads[-1]["delta"])
    assert "## What would decide the open questions" in Path(data["report"]).read_text()
    args = shlex.split(command)
    assert args[:2] == ["tuner", "ablate"] and args[args.index("--budget-calls") + 1] == str(leads[0]["calls"])
    second = cli(*args[1:], "--json")
    assert second.exit_code == 0, second.output
    after = json.loads(second.stdout)
    verdicts = {e["rule"]: e["verdict"] for e in after["effects"]}
    assert verdicts[leads[0]["rule"]] in ("helps", "hurts")
    # Only the difference was paid: the first invocation's 150 calls are replayed from the caches.
    assert after["adaptive"]["new_calls"] == after["adaptive"]["calls"] - data["adaptive"]["calls"] > 0


@pytest.mark.slow
def test_tune_names_what_would_decide_its_open_questions(cli, py_project):
    r = cli("tune", "-c", "text", "--model", "sim/careful", "--budget-calls", "400", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert not data["accepted"]  # 200 screening calls decide none of the 13 questions (the simulator is deterministic)
    leads = data["screening"]["leads"]
    assert leads and all(x["calls"] is None or x["calls"] > 400 for x in leads)
    assert (
        "--budget-calls" in data["screening"]["continue"]
        and "tuner tune --category text" in data["screening"]["continue"]
    )
    assert "What would decide the leading open questions" in Path(data["report"]).read_text()


@pytest.mark.slow
def test_a_tune_withheld_by_the_margin_names_the_cap_that_rules_it_out(cli, py_project):
    """At 400 calls the confirmation cannot rule out a 15-point drop elsewhere: the result names the
    command whose cap does (80% chance where nothing moves), and that cap's plan needs no larger one."""
    r = cli("tune", "-c", "data", "--model", "sim/careful", "--budget-calls", "400", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    cells = data["acceptance"]["noninferiority"]
    # The simulator is deterministic: a change reaches the confirmation, whose 400-call share cannot show it.
    assert cells and not all(c["verdict"] == "non-inferior" for c in cells), cells
    command = data["confirmation"]["margin_continue"]
    import shlex

    args = shlex.split(command)
    need = int(args[args.index("--budget-calls") + 1])
    assert args[:4] == ["tuner", "tune", "--category", "data"] and need > 400, command
    assert "To rule it out everywhere (80% chance where nothing moves" in Path(data["report"]).read_text()
    plan = cli(*args[1:], "--plan", "--json")
    assert plan.exit_code == 0, plan.output
    decides = json.loads(plan.stdout)["decides"]
    assert decides[-1]["calls"] is None, decides[-1]
    text = cli("tune", "-c", "data", "--model", "sim/careful", "--budget-calls", "400")
    assert "to rule it out everywhere (80% chance where nothing moves" in " ".join(text.output.split()), text.output
