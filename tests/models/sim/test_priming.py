"""The priming effect: any instruction text lowers a primed profile's mistakes, growing with the
prompt's tokens and bounded by ``priming``; a profile without it is unchanged."""

from __future__ import annotations

from pathlib import Path

from tuner.models.sim.gaps import Gap
from tuner.models.sim.profiles import Profile, load_sim_data

REPO = Path(__file__).resolve().parents[3]
GAP = Gap(id="g", category="c", trigger="x", transform=[{"pattern": "x", "replace": "y"}], cures=["cure me"])


def test_priming_grows_with_tokens_and_is_bounded():
    p = Profile(cure_strength=0.0, attention_tokens=10**6, priming=0.8, priming_tokens=100, gaps={"g": 0.5})
    rates = [p.mistake_probability(GAP, "", tokens) for tokens in (0, 50, 100, 400, 10**6)]
    assert rates[0] == 0.5
    assert rates == sorted(rates, reverse=True) and len(set(rates)) == len(rates)
    assert abs(rates[2] - 0.5 * (1 - 0.4)) < 1e-12  # half of the bound at priming_tokens
    assert rates[-1] > 0.5 * (1 - 0.8)  # never past the bound


def test_priming_does_not_read_the_words():
    p = Profile(cure_strength=0.0, attention_tokens=10**6, priming=0.8, priming_tokens=100, gaps={"g": 0.5})
    assert p.mistake_probability(GAP, "a" * 400) == p.mistake_probability(GAP, "b" * 400)
    plain = Profile(cure_strength=0.9, attention_tokens=10**6, gaps={"g": 0.5})
    assert plain.mistake_probability(GAP, "a" * 4000) == 0.5  # no priming: length alone changes nothing


def test_the_python_suites_primed_profile_is_loaded_from_its_own_file():
    data = load_sim_data(REPO / "suites" / "python")
    primed = data.profile("primed")
    assert primed.priming > 0 and primed.cure_strength <= 0.1
    assert set(primed.gaps) <= {g.id for g in data.gaps}
    assert data.profile("careful").priming == 0.0
