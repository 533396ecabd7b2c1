"""The planted truth, computed: what including a rule *should* do for a simulated profile.

Used to score tuning and ablation against the known answer. Computed from the data (gaps, cures,
profile), never by running the simulator. No litellm here.

Model of a pass (an approximation, stated so results are read correctly):

* every planted mistake (gap or side effect) fails its eval, and an eval without one passes, i.e.
  the reference answers pass and every transform breaks grading (``tests/models`` checks that each
  transform changes the text; only a grading run can prove it breaks the eval);
* draws are independent, so ``P(pass) = (1 - noise) * prod(1 - p_gap) * prod(1 - p_side)`` over the
  gaps and side effects that apply to the eval's reference answer (``noise`` only when at least one
  gap applies, since noise re-plants one of them);
* two gaps that overlap in the text are counted as two independent chances to fail;
* the system prompt is, by default, the rules' texts joined by blank lines; pass ``compose`` (rule
  ids -> the exact system prompt, e.g. ``tuner.guidelines.compose`` with the real template) to get
  the truth of the prompts a method actually sends, since framing tokens change the attention factor
  and a cure matched across a heading can differ;
* a category's score is the mean pass probability of its evals (``eval_ids``: of those evals only,
  e.g. the tuning evals a design sees, held-out excluded).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from tuner.errors import InputError
from tuner.models.sim.profiles import Profile, SimData, approx_tokens, load_sim_data
from tuner.models.sim.suite import SimEval, load_suite

__all__ = ["pass_probability", "category_scores", "expected_effects", "prompt_of"]


def prompt_of(rules: dict[str, str], ids: list[str] | set[str]) -> str:
    return "\n\n".join(rules[r] for r in rules if r in ids)


def pass_probability(profile: Profile, data: SimData, ev: SimEval, system_prompt: str) -> float:
    tokens = approx_tokens(system_prompt)
    # Which gaps apply to the reference answer does not depend on the prompt: memoized per eval (SimData).
    applicable = [g for g in data.applicable(ev.id, ev.answer) if g.id in profile.gaps]
    p = 1.0 - profile.noise if applicable else 1.0
    for gap in applicable:
        p *= 1.0 - profile.mistake_probability(gap, system_prompt, tokens)
    for effect in profile.side_effects:
        if ev.category in effect.categories and effect.applies_to(ev.answer):
            p *= 1.0 - profile.side_effect_probability(effect, system_prompt, tokens)
    return p


def category_scores(
    profile: Profile, data: SimData, suite: tuple[SimEval, ...], system_prompt: str
) -> dict[str, float]:
    by_cat: dict[str, list[float]] = {}
    for ev in suite:
        by_cat.setdefault(ev.category, []).append(pass_probability(profile, data, ev, system_prompt))
    return {c: sum(ps) / len(ps) for c, ps in sorted(by_cat.items())}


def expected_effects(
    profile: str | Profile,
    rules: dict[str, str],
    *,
    relative_to: Literal["none", "all"] = "none",
    root: Path | None = None,
    data: SimData | None = None,
    suite: tuple[SimEval, ...] | None = None,
    eval_ids: Iterable[str] | None = None,
    compose: Callable[[set[str]], str] | None = None,
) -> dict[str, dict[str, float]]:
    """{rule id: {category: change in expected pass rate}} from including each rule.

    ``relative_to="none"``: the rule alone versus an empty system prompt (add-one-in).
    ``relative_to="all"``: all ``rules`` versus all but this one (leave-one-out; includes how the
    rule's length dilutes attention to the others).
    ``eval_ids``: average over these evals only (unknown ids are an error: a silent empty category
    would read as "no effect"). ``compose``: the system prompt for a set of rule ids (default: the
    texts joined by blank lines, see the module docstring).
    """
    if root is None and (data is None or suite is None):
        from tuner.models.sim.world import default_suite_root

        root = default_suite_root()
    data = data or load_sim_data(root)
    suite = suite if suite is not None else load_suite(root)  # type: ignore[arg-type]
    prof = data.profile(profile) if isinstance(profile, str) else profile
    if eval_ids is not None:
        wanted = set(eval_ids)
        missing = wanted - {e.id for e in suite}
        if missing:
            raise InputError(f"expected_effects: eval ids not in the suite: {', '.join(sorted(missing))}")
        suite = tuple(e for e in suite if e.id in wanted)
    render = compose or (lambda ids: prompt_of(rules, ids))
    everything = set(rules)
    effects = {}
    for rule_id in rules:
        if relative_to == "none":
            with_ids, without_ids = {rule_id}, set()
        else:
            with_ids, without_ids = everything, everything - {rule_id}
        with_rule = category_scores(prof, data, suite, render(with_ids))
        without = category_scores(prof, data, suite, render(without_ids))
        effects[rule_id] = {c: with_rule[c] - without[c] for c in with_rule}
    return effects
