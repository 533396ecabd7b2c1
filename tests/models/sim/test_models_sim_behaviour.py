"""The simulator's behaviour: deterministic replays, varying samples, cures, attention, side effects."""

from __future__ import annotations

import pytest

from tuner.errors import InputError, ProviderError
from tuner.models import parse_files
from tuner.models.sim.answers import simulate
from tuner.models.sim.profiles import load_sim_data
from tuner.models.sim.suite import find_eval
from tuner.models.sim.truth import category_scores, expected_effects, pass_probability, prompt_of


def _ev(suite, eval_id):
    return next(e for e in suite if e.id == eval_id)


def test_finds_the_eval_from_the_user_message(suite):
    from tuner.models import build_messages

    ev = suite[3]
    assert find_eval(suite, build_messages("x", ev.task)[1]["content"]) == ev
    assert find_eval(suite, "ping") is None


def test_replays_are_exact_and_samples_vary(data, suite):
    prof = data.profile("careful")
    ev = _ev(suite, "005-actions/001-hash-text")
    a = [simulate("careful", prof, data, ev, "", i).text for i in range(20)]
    b = [simulate("careful", prof, data, ev, "", i).text for i in range(20)]
    assert a == b
    assert len(set(a)) > 1


def test_output_is_labelled_and_parseable(data, suite):
    ev = _ev(suite, "005-actions/001-hash-text")
    ans = simulate("careful", data.profile("careful"), data, ev, "", 0)
    assert ans.text.startswith("(simulated by tuner sim/careful: planted gaps ")
    parsed = parse_files(ans.text)
    assert parsed.error is None and set(parsed.files) == set(ev.answer)


def test_perfect_profile_returns_the_reference(data, suite):
    for ev in suite:
        ans = simulate("perfect", data.profile("perfect"), data, ev, "", 0)
        assert ans.planted == () and parse_files(ans.text).files == ev.answer


def test_guidance_cures_and_long_prompts_dilute(data, suite, rules):
    prof = data.profile("careful")
    ev = _ev(suite, "005-actions/001-hash-text")
    gap = data.gap("actions.missing-use-node")
    rule = rules["actions.use-node-directive"]
    bare = prof.mistake_probability(gap, "")
    cured = prof.mistake_probability(gap, rule)
    terse = prof.mistake_probability(gap, rules["actions.use-node-directive@terse"])
    diluted = prof.mistake_probability(gap, rule + "\n" + "filler words " * 20000)
    assert cured < terse < bare and cured < diluted < bare

    def rate(system):
        return (
            sum(
                "actions.missing-use-node" in simulate("careful", prof, data, ev, system, i).planted for i in range(300)
            )
            / 300
        )

    assert rate("") > 0.6 and rate(rule) < 0.2


def test_harmful_rule_makes_the_mistake_more_likely(data, rules):
    prof = data.profile("careful")
    gap = data.gap("queries.filter-instead-of-index")
    assert prof.mistake_probability(gap, rules["style.prefer-filter"]) > prof.mistake_probability(gap, "")


def test_overeager_side_effect_breaks_another_category(data, suite, rules):
    prof = data.profile("overeager")
    ev = _ev(suite, "003-queries/001-latest-messages")
    rule = rules["functions.internal-for-private"]
    planted = [simulate("overeager", prof, data, ev, rule, i).planted for i in range(100)]
    assert sum("overeager.public-query-made-internal" in p for p in planted) > 30
    effects = expected_effects(prof, {"functions.internal-for-private": rule}, data=data, suite=suite)
    assert effects["functions.internal-for-private"]["queries"] < -0.1


def test_truth_matches_simulated_frequencies(data, suite, rules):
    prof = data.profile("careful")
    ev = _ev(suite, "003-queries/001-latest-messages")
    system = prompt_of(rules, ["queries.with-index", "functions.args-validators"])
    n = 2000
    clean = sum(simulate("careful", prof, data, ev, system, i).planted == () for i in range(n)) / n
    expected = pass_probability(prof, data, ev, system)
    assert abs(clean - expected) < 0.04, (clean, expected)


def test_expected_effects_shape_and_signs(data, suite, rules):
    base = {k: v for k, v in rules.items() if "@" not in k}
    eff = expected_effects("careful", base, data=data, suite=suite)
    assert set(eff) == set(base)
    assert eff["actions.use-node-directive"]["actions"] > 0
    assert all(v <= 1e-9 for v in eff["style.prefer-filter"].values())
    assert all(abs(v) < 1e-9 for v in eff["style.explain-code"].values())
    loo = expected_effects("careful", base, relative_to="all", data=data, suite=suite)
    assert loo["queries.with-index"]["queries"] > 0
    scores = category_scores(data.profile("careful"), data, suite, "")
    assert set(scores) == {ev.category for ev in suite}


def test_user_sim_file_adds_profiles_and_gaps(tmp_path, suite_root, monkeypatch):
    user = tmp_path / "sim.yaml"
    user.write_text(
        "gaps:\n"
        "  - id: my.gap\n    category: queries\n    trigger: 'withIndex'\n"
        "    transform: [{pattern: 'withIndex', replace: 'withIndexx'}]\n    cures: ['my rule']\n"
        "profiles:\n  mine:\n    cure_strength: 1.0\n    attention_tokens: 1000\n    gaps: {my.gap: 1.0}\n"
    )
    data = load_sim_data(suite_root, user)
    assert "mine" in data.profiles and data.gap("my.gap") and "careful" in data.profiles
    monkeypatch.setenv("TUNER_SIM_FILE", str(user))
    assert "mine" in load_sim_data(suite_root).profiles
    bad = tmp_path / "bad.yaml"
    bad.write_text("profiles:\n  x:\n    cure_strength: 2\n    attention_tokens: 5\n")
    with pytest.raises(InputError, match=r"bad\.yaml: profiles\.x\.cure_strength"):
        load_sim_data(suite_root, bad)
    bad.write_text("profiles:\n  x:\n    cure_strength: 1\n    attention_tokens: 5\n    gaps: {nope: 1}\n")
    with pytest.raises(InputError, match="unknown gap ids"):
        load_sim_data(suite_root, bad)
    with pytest.raises(ProviderError, match="sim/zzz"):
        data.profile("zzz")
