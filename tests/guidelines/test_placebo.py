"""The placebo prompt: length-matched to the token, deterministic from its seed, rule-shaped, and
teaching nothing the simulator's planted truth reacts to in any shipped suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from tuner.errors import InputError
from tuner.guidelines import Template, load_guidelines, placebo_prompt
from tuner.paths import Project
from tuner.tokens import count_tokens

REPO = Path(__file__).resolve().parents[2]
SUITES = [None, REPO / "suites" / "python", REPO / "suites" / "c"]


def _guidelines(suite):
    return load_guidelines(Project(REPO, suite))


@pytest.mark.parametrize(
    ("suite", "set_name"),
    [
        (SUITES[0], "all-active"),
        (SUITES[0], "everything"),
        (SUITES[1], "all-active"),
        (SUITES[1], "everything"),
        (SUITES[2], "all-active"),
    ],
    ids=["convex-all", "convex-everything", "python-all", "python-everything", "c-all"],
)
def test_placebo_matches_the_sets_tokens_exactly(suite, set_name):
    g = _guidelines(suite)
    rule_set = g.load_set(set_name)
    real = g.compose(rule_set)
    for seed in (0, 1):
        p = g.placebo(rule_set, seed)
        assert p.tokens == real.tokens == count_tokens(p.text)
        assert p.text.startswith(g.template(rule_set.template).header.strip())  # same template, same header
        assert p.rules == () and p.set_name == f"placebo-{set_name}-s{seed}"


def test_placebo_is_deterministic_per_seed_and_differs_across_seeds():
    g = _guidelines(SUITES[1])
    s = g.load_set("all-active")
    assert g.placebo(s, 0).hash == g.placebo(s, 0).hash
    assert g.placebo(s, 0).hash != g.placebo(s, 1).hash
    assert g.placebo(s, 0).hash != g.compose(s).hash


def test_placebo_is_rule_shaped():
    t = Template(header="# Guidelines", rule_format="- **{title}.** {text}")
    p = placebo_prompt(t, 400, seed=3, of="x")
    lines = [ln for ln in p.text.splitlines() if ln.strip()]
    assert lines[0] == "# Guidelines"
    assert sum(ln.startswith("## ") for ln in lines) >= 1
    assert sum(ln.startswith("- **") for ln in lines) >= 5
    assert p.tokens == 400


def test_placebo_of_a_set_without_rules_is_refused():
    g = _guidelines(SUITES[1])
    with pytest.raises(InputError, match="set 'none' has no rule text to match"):
        g.placebo(g.load_set("none"), 0)


@pytest.mark.parametrize("suite", SUITES, ids=["convex", "python", "c"])
def test_placebo_carries_no_cue_of_the_planted_truth(suite):
    """No cure, induced mistake or side effect of any profile reacts to the placebo's words, so on
    the simulator it can only act through its length (priming, attention)."""
    from tuner.models.sim.profiles import load_sim_data

    g = _guidelines(suite)
    data = load_sim_data(suite or REPO / "evals")
    biggest = "everything" if "everything" in g.set_names() else "all-active"
    text = g.placebo(g.load_set(biggest), 0).text
    for gap in data.gaps:
        assert gap.cure_strength(text) == 0 and gap.induce_strength(text) == 0, gap.id
    for name, profile in data.profiles.items():
        for effect in profile.side_effects:
            assert not effect.cue().matches(text), (name, effect.id)
