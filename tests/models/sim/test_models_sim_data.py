"""The planted truth itself: every gap applies somewhere, changes the text, and is curable by a rule."""

from __future__ import annotations

import re
import tomllib

import pytest

from tuner.models.sim.profiles import load_sim_data


def test_enough_gaps_in_every_category(data, suite_root):
    categories = tomllib.loads((suite_root / "suite.toml").read_text())["categories"]
    assert {g.category for g in data.gaps} <= set(categories)
    per_category = {c: sum(g.category == c for g in data.gaps) for c in categories}
    assert all(n >= 3 for n in per_category.values()), per_category


def test_the_three_blog_mistakes_are_planted(data):
    ids = {g.id for g in data.gaps}
    assert {"actions.missing-use-node", "actions.storage-without-blob", "actions.cron-function-object"} <= ids


def test_profiles(data):
    assert {"careful", "overeager", "expert"} <= set(data.profiles)
    assert data.profiles["overeager"].side_effects
    assert len(data.profiles["expert"].gaps) < len(data.profiles["careful"].gaps)


def _gap_params():
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    return [g.id for g in load_sim_data(root / "evals", None).gaps]


@pytest.mark.parametrize("gap_id", _gap_params())
def test_each_gap_triggers_on_a_reference_answer_and_changes_it(gap_id, data, suite):
    gap = data.gap(gap_id)
    hits = [ev for ev in suite if gap.applies_to(ev.answer)]
    if not hits and not any(ev.category == gap.category for ev in suite):
        pytest.skip(f"no {gap.category} evals in the suite yet")
    assert hits, f"{gap_id}: trigger {gap.trigger!r} matches no reference answer"
    for ev in hits:
        changed, did = gap.apply(ev.answer)
        assert did and changed != ev.answer, f"{gap_id}: transform leaves {ev.id} unchanged"


def test_each_side_effect_applies_to_an_eval_of_its_categories(data, suite):
    for name, prof in data.profiles.items():
        for effect in prof.side_effects:
            hits = [ev for ev in suite if ev.category in effect.categories and effect.applies_to(ev.answer)]
            assert hits, f"{name}/{effect.id}: applies to no eval"
            assert all(effect.apply(ev.answer)[1] for ev in hits)


def test_each_gap_is_fully_cured_by_the_detailed_rules(data, rules):
    # Cure regexes are written against the rule texts: a reworded rule must be noticed here.
    detailed = "\n\n".join(text for rid, text in rules.items() if "@" not in rid and not rid.startswith("style."))
    for gap in data.gaps:
        assert gap.cure_strength(detailed) == 1.0, f"{gap.id}: no full-strength cure in the current rules"


def test_terse_variants_cure_less(data, rules):
    terse = {rid.split("@")[0]: text for rid, text in rules.items() if rid.endswith("@terse")}
    weaker = 0
    for gap in data.gaps:
        for rid, text in terse.items():
            s = gap.cure_strength(text)
            # Where the full rule is this gap's cure, its terse phrasing must cure less. (A rule
            # that touches another gap only weakly may do so equally in both phrasings.)
            if s > 0 and gap.cure_strength(rules[rid]) == 1.0:
                assert s < 1.0, f"{gap.id}: terse {rid} cures as much as the full rule"
                weaker += 1
    assert weaker >= 3


def test_harmful_candidate_rule_induces_a_gap(data, rules):
    assert data.gap("queries.filter-instead-of-index").induce_strength(rules["style.prefer-filter"]) > 0


def test_every_substitution_expands_its_replacement(data, suite):
    """Each substitution of each gap, applied where the gap triggers, runs without error and leaves
    no unexpanded group reference behind (a replacement quoted wrongly in YAML would)."""
    unexpanded = re.compile(r"\\[0-9]|\\g<")
    applied = 0
    for gap in data.gaps:
        for ev in suite:
            for path in gap.targets(ev.answer):
                text = ev.answer[path]
                for sub in gap.transform:
                    out = sub.apply(text)
                    if out != text:
                        applied += 1
                        assert len(unexpanded.findall(out)) <= len(unexpanded.findall(text)), (
                            gap.id,
                            ev.id,
                            sub.replace,
                        )
                    text = out
    assert applied >= len(data.gaps)
