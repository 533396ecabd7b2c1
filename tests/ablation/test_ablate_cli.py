"""`tuner ablate` end to end on the simulator, on the Python suite whose planted truth is known
(suites/python/sim/gaps.yaml, profiles.yaml): the verdicts asserted here are what that truth implies.

On sim/careful, for the `text` category (selection evals 001-003; 004 is held out):
- `py.raise-valueerror` cures `text.none-for-bad-input` (p = 0.3 in every selection eval): helps.
- `py.casefold` cures `text.lower-not-casefold` (p = 0.6 on slugify): a large effect.
- `py.no-mutable-defaults` cures only a data gap, and careful's attention is far above the prompt's
  length: its effect on text is exactly zero.
"""

import json
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow]

ACTIVE = {"py.raise-valueerror", "py.inclusive-limits", "py.no-mutable-defaults", "py.casefold", "py.unicode-normalize"}
# A rule this test plants: its text carries the strongest cures of two text gaps,
# text.none-for-bad-input (p = 0.3 in every selection eval) and text.wrap-width-off-by-one (p = 0.4
# on wrap), and nothing else in its set does (py.raise-valueerror and py.inclusive-limits are left out).
PLANTED = """---
id: py.planted-raise
title: Report bad input by raising; mind inclusive widths
section: [Errors]
targets: [text]
status: candidate
---
Never signal an error by returning `None` or a sentinel: raise `ValueError` with a message that
names the bad value. A wrapped line may be exactly `width` long.
"""


def _effects(r) -> tuple[dict, dict]:
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    effects = {e["rule"]: e for e in data["effects"]}
    assert all(e["category"] == "text" for e in data["effects"])
    return data, effects


def test_a_planted_helpful_rule_deleted_from_the_set_is_found(cli, py_project):
    rules = py_project / "py" / "guidelines" / "rules"
    (rules / "errors" / "planted.md").write_text(PLANTED)
    (py_project / "py" / "guidelines" / "sets" / "planted.yaml").write_text(
        "description: the active rules, with the planted rule in place of two of them\n"
        "statuses: [active]\ninclude: [py.planted-raise]\nexclude: [py.raise-valueerror, py.inclusive-limits]\n"
    )
    r = cli(
        "ablate",
        "--set",
        "planted",
        "--design",
        "loo",
        "--category",
        "text",
        "--samples",
        "10",
        "--model",
        "sim/careful",
        "--json",
    )
    data, effects = _effects(r)
    assert set(effects) == ACTIVE - {"py.raise-valueerror", "py.inclusive-limits"} | {"py.planted-raise"}
    # Deleting the planted rule brings its mistakes back (about 0.3 + 0.4 / 3 of the text samples): found.
    planted = effects["py.planted-raise"]
    assert planted["verdict"] == "helps" and planted["delta"] >= 0.25, planted
    assert planted["q_value"] < 0.01, planted  # not a borderline call
    assert effects["py.no-mutable-defaults"]["delta"] == 0 and effects["py.no-mutable-defaults"]["verdict"] != "helps"
    # The rule that found nothing to cure is not called harmful, nor anything else here.
    assert not [e for e in effects.values() if e["verdict"] == "hurts"], effects


def test_loo_verdicts_match_the_planted_truth_and_files_are_written(cli, py_project):
    r = cli("ablate", "--design", "loo", "--category", "text", "--samples", "10", "--model", "sim/careful", "--json")
    data, effects = _effects(r)
    assert set(effects) == ACTIVE and all(e["tokens"] > 0 for e in effects.values())
    assert effects["py.raise-valueerror"]["verdict"] == "helps", effects["py.raise-valueerror"]
    assert effects["py.casefold"]["delta"] >= 0.15
    assert effects["py.no-mutable-defaults"]["delta"] == 0
    assert effects["py.no-mutable-defaults"]["verdict"] == "no detectable effect"
    md = Path(data["report"]) if data["report"].startswith("/") else py_project / data["report"]
    assert md.is_file() and md.with_suffix(".png").stat().st_size > 1000 and md.with_suffix(".json").is_file()


def test_screening_runs_and_bad_design(cli, py_project):
    r = cli("ablate", "--design", "screening", "--runs", "4", "--category", "text", "--model", "sim/careful", "--json")
    data, effects = _effects(r)
    assert data["design"] == "screening" and data["runs"] == 4 and set(effects) == ACTIVE
    from tuner.store import Store

    store = Store.open(f"sqlite:///{py_project / 'experiments' / 'tuner.db'}", create=False)
    try:  # one prompt per cell, stored as points of the ablation (4 replicates x the category's evals)
        assert store.runs() == [] and len(store.design_points(data["id"])) == 4 * len(data["eval_ids"])
    finally:
        store.close()
    bad = cli("ablate", "--design", "everything")
    assert bad.exit_code == 2 and "--design" in bad.stderr and bad.stderr.count("\n") == 1


def test_adaptive_finds_the_strong_rule_and_a_larger_budget_continues(cli, py_project):
    first = cli("ablate", "--category", "text", "--budget-calls", "200", "--model", "sim/careful", "--json")
    a, _ = _effects(first)
    assert a["design"] == "adaptive" and a["adaptive"]["calls"] <= 200
    assert sum(h["calls"] for h in a["adaptive"]["history"][-1:]) == a["adaptive"]["calls"]

    more = cli("ablate", "--category", "text", "--budget-calls", "400", "--model", "sim/careful", "--json")
    b, effects = _effects(more)
    assert b["id"] == a["id"]  # the budget is not part of the ablation's identity
    assert b["adaptive"]["calls"] <= 400
    # A larger budget is a new plan of looks; the points it shares with the first (its first round
    # always: every rule is open there) come back from the store and caches, unpaid.
    first_round = a["adaptive"]["history"][0]["calls"]
    assert b["adaptive"]["history"][0] == {**a["adaptive"]["history"][0], "new_calls": 0}
    assert b["adaptive"]["new_calls"] <= b["adaptive"]["calls"] - first_round
    # What the truth implies, at this budget: the strongest rule is decided, none is called harmful.
    assert effects["py.raise-valueerror"]["verdict"] == "helps", effects["py.raise-valueerror"]
    assert not [e for e in effects.values() if e["verdict"] == "hurts"], effects
    assert effects["py.no-mutable-defaults"]["verdict"] != "helps"
    # One experiment, not a run per call: every observation is a point of the ablation (schema v5).
    from tuner.store import Store

    store = Store.open(f"sqlite:///{py_project / 'experiments' / 'tuner.db'}")
    try:
        points = store.design_points(b["id"])
        assert store.runs() == [] and len(points) == b["adaptive"]["calls"]
        assert all(
            p.outcome in ("pass", "fail") and p.response_key and p.model == "sim/careful" for p in points.values()
        )
        assert any(p.dropped for p in points.values())
    finally:
        store.close()


# A harmful candidate the test plants: a simulated model (sim/planted, careful's settings) that, after
# reading it, renames the function of the CSV task in 90% of its answers (a side effect, as
# sim/overeager has), so that eval's tests fail when it fires.
HARMFUL = """---
id: py.planted-harm
title: Name helpers after their module
section: [Functions]
targets: [text]
status: candidate
---
Give every public function a version suffix so that callers can tell releases apart.
"""
PLANTED_SIM = """
profiles:
  planted:
    description: careful, plus a side effect of the planted harmful rule
    cure_strength: 0.99
    attention_tokens: 20000
    noise: 0.005
    gaps: {text.lower-not-casefold: 0.6, text.skip-unicode-normalize: 0.5, text.wrap-width-off-by-one: 0.4,
           text.none-for-bad-input: 0.3, data.mutable-default: 0.5, data.mutates-input: 0.7,
           data.none-for-bad-input: 0.3, data.capacity-off-by-one: 0.4}
    side_effects:
      - id: planted.versioned-name
        description: Renames the first public function of the module (its tests cannot import it).
        rule_cue: 'version suffix'
        categories: [text]
        files: 'app/csv_line.py'
        probability: 0.9
        trigger: '^def [a-z]\\w*\\('
        transform:
          - {pattern: '^def ([a-z]\\w*)\\(', replace: 'def \\1_v2(', count: 1}
"""


def test_defaults_find_a_planted_helpful_rule_and_flag_a_planted_harmful_candidate(cli, py_project, monkeypatch):
    """`tuner ablate` with its default design and budget, from the CLI: the planted rule that cures two
    text gaps helps, the planted harmful candidate hurts, and a rule with no effect on text is not flagged."""
    rules = py_project / "py" / "guidelines" / "rules"
    (rules / "errors" / "planted.md").write_text(PLANTED)
    (rules / "functions" / "planted-harm.md").write_text(HARMFUL)
    (py_project / "py" / "guidelines" / "sets" / "planted.yaml").write_text(
        "description: the active rules with the planted ones in place of two of them\n"
        "statuses: [active]\ninclude: [py.planted-raise, py.planted-harm]\n"
        "exclude: [py.raise-valueerror, py.inclusive-limits]\n"
    )
    sim = py_project / "planted-sim.yaml"
    sim.write_text(PLANTED_SIM)
    monkeypatch.setenv("TUNER_SIM_FILE", str(sim))
    r = cli("ablate", "--set", "planted", "--category", "text", "--model", "sim/planted", "--json")
    data, effects = _effects(r)
    assert data["design"] == "adaptive" and data["adaptive"]["budget_calls"] == 600  # the default floor
    assert data["adaptive"]["calls"] <= 600 and data["spent"]["calls"] <= 600
    assert effects["py.planted-raise"]["verdict"] == "helps", effects["py.planted-raise"]
    assert effects["py.planted-harm"]["verdict"] == "hurts", effects["py.planted-harm"]
    # Where it matters: the one eval whose function it renames stands out.
    where = list(effects["py.planted-harm"]["by_eval"].items())
    assert where[0][0] == "001-text/003-csv-line" and where[0][1][0] < -0.5, where
    assert effects["py.no-mutable-defaults"]["verdict"] not in ("helps", "hurts")


def test_adaptive_refuses_samples_and_an_inverted_zone(cli, py_project):
    r = cli("ablate", "--samples", "3")
    assert r.exit_code == 2 and "--budget-calls" in r.stderr
    r = cli("ablate", "--delta0", "0.1", "--delta", "0.05")
    assert r.exit_code == 2 and "--delta0" in r.stderr
    assert not (py_project / "experiments" / "tuner.db").exists()


def test_an_ablation_is_an_experiment_linked_to_its_runs(cli, py_project):
    r = cli("ablate", "--design", "loo", "--category", "text", "--samples", "1", "--model", "sim/careful", "--json")
    assert r.exit_code == 0, r.output
    from tuner.store import Store

    store = Store.open(f"sqlite:///{py_project / 'experiments' / 'tuner.db'}", create=False)
    try:
        [exp] = store.experiments("ablate")
        links = store.experiment_runs(exp["id"])
    finally:
        store.close()
    # One run per variant (the reference and one without each active rule) for the one model.
    assert {role for _, role in links} == {"design"} and len(links) == len(ACTIVE) + 1


def test_a_small_cap_leaves_a_planted_rule_open_and_the_printed_command_continues_to_decide_it(
    cli, py_project, tmp_path, monkeypatch
):
    """Issue 29's done-criterion: at a small cap the planted rule is undecided and the output names
    the calls that decide it and the command that continues; that command, run exactly as printed,
    is the same experiment: it replays the looks made (spending what they spent), decides the rule,
    pays only the difference, and the error spent over both invocations stays within alpha."""
    import shlex

    from tuner.store import Store

    # A response cache of its own: what the first invocation pays is counted, not found in other tests' calls.
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "own-cache"))
    # The active set's rules each cure gaps the simulator plants (module doc); at 150 calls none is decided.
    first = cli("ablate", "--category", "text", "--model", "sim/careful", "--budget-calls", "150", "--json")
    a, effects = _effects(first)
    lead = a["adaptive"]["leads"][0]
    assert effects[lead["rule"]]["verdict"] == "undecided" and lead["delta"] > 0.02 and lead["calls"] > 150, lead
    command = a["adaptive"]["continue"]
    args = shlex.split(command)
    assert (
        args[:2] == ["tuner", "ablate"]
        and int(args[args.index("--budget-calls") + 1]) == a["adaptive"]["leads"][0]["calls"]
    )
    assert (
        a["adaptive"]["continued"] == 0 and a["spent"]["calls"] == a["adaptive"]["new_calls"] == a["adaptive"]["calls"]
    )

    second = cli(*args[1:], "--json")  # exactly the printed command (the test's --json aside)
    b, effects = _effects(second)
    assert b["id"] == a["id"] and b["adaptive"]["continued"] == len(a["adaptive"]["history"])
    assert effects[lead["rule"]]["verdict"] == "helps", effects[lead["rule"]]
    # Only the difference is paid: the first invocation's calls come back from the store and caches.
    assert b["adaptive"]["new_calls"] == b["spent"]["calls"] == b["adaptive"]["calls"] - a["adaptive"]["calls"] > 0
    # The looks made first are replayed with the error they spent; every look together spends at most alpha.
    made = [(h["reps"], h["alpha"], h["beta"]) for h in a["adaptive"]["history"]]
    assert [(h["reps"], h["alpha"], h["beta"]) for h in b["adaptive"]["history"]][: len(made)] == made
    store = Store.open(f"sqlite:///{py_project / 'experiments' / 'tuner.db'}")
    try:
        anchor, recorded = store.engine_looks(b["id"], "adaptive")
    finally:
        store.close()
    assert recorded == [(h["reps"], h["alpha"], h["beta"]) for h in b["adaptive"]["history"]]
    assert anchor == a["adaptive"]["looks"][-1]
    assert (
        b["adaptive"]["alpha_spent"] == pytest.approx(sum(x[1] for x in recorded))
        and b["adaptive"]["alpha_spent"] <= 0.05
    )
    # A different question (another zone) is another experiment: it starts afresh.
    other = cli(
        "ablate", "--category", "text", "--model", "sim/careful", "--budget-calls", "150", "--delta", "0.1", "--json"
    )
    c, _ = _effects(other)
    assert c["id"] != a["id"] and c["adaptive"]["continued"] == 0
