"""What a simulated model answers: the reference files with planted mistakes.

Pure and deterministic: every random draw is a hash of (system prompt hash, eval id, sample index,
draw name), so different samples differ while replaying any one is exact. No litellm here (the
litellm adapter is ``provider.py``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from tuner.models.messages import render_files
from tuner.models.sim.profiles import Profile, SimData, approx_tokens
from tuner.models.sim.suite import SimEval

__all__ = ["SimAnswer", "simulate", "draw", "label"]


@dataclass(frozen=True)
class SimAnswer:
    text: str
    planted: tuple[str, ...]  # gap and side-effect ids that changed the answer, in order
    eval_id: str | None


def draw(prompt_hash: str, eval_id: str, sample_index: int, name: str) -> float:
    """A uniform number in [0, 1) fixed by its coordinates."""
    digest = hashlib.sha256(f"{prompt_hash}|{eval_id}|{sample_index}|{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def label(profile_name: str, planted: tuple[str, ...] | list[str]) -> str:
    return f"(simulated by tuner sim/{profile_name}: planted gaps {', '.join(planted) or 'none'})"


def simulate(
    profile_name: str,
    profile: Profile,
    data: SimData,
    ev: SimEval,
    system_prompt: str,
    sample_index: int,
    turn: int = 1,
    variety: bool = False,
) -> SimAnswer:
    """The answer at ``turn`` of the repair loop: the first answer's mistakes, less those fixed at
    each later turn (each one still there is fixed with ``Profile.fix_probability``, drawn per turn).
    ``variety``: dress the answer differently per sample and turn (``variety.py``; verdicts unchanged)."""
    first = _first_answer(profile, data, ev, system_prompt, sample_index)
    prompt_hash = hashlib.sha256(system_prompt.encode()).hexdigest()

    def dress(name: str) -> float:
        return draw(prompt_hash, ev.id, sample_index, f"variety|{name}" if turn <= 1 else f"variety|{turn}|{name}")

    if turn <= 1:
        return _render(profile_name, ev, first, [m.id for m in first], dress if variety else None)
    tokens = approx_tokens(system_prompt)
    left = list(first)
    for t in range(2, turn + 1):
        left = [
            m
            for m in left
            if draw(prompt_hash, ev.id, sample_index, f"repair:{t}:{m.id}")
            >= profile.fix_probability(m.id, getattr(m, "cures", []), system_prompt, tokens)
        ]
    return _render(profile_name, ev, left, [m.id for m in left], dress if variety else None)


def _render(profile_name: str, ev: SimEval, mistakes: list, planted: list[str], dress=None) -> SimAnswer:
    files = dict(ev.answer)
    for m in mistakes:
        files, _ = m.apply(files)
    if dress is not None:
        from tuner.models.sim.variety import vary

        files = vary(files, dress)
    text = label(profile_name, planted) + "\n\n" + render_files(files)
    return SimAnswer(text=text, planted=tuple(planted), eval_id=ev.id)


def _first_answer(profile: Profile, data: SimData, ev: SimEval, system_prompt: str, sample_index: int) -> list:
    """The mistakes (gaps, then side effects) that changed the first answer, in the order applied."""
    prompt_hash = hashlib.sha256(system_prompt.encode()).hexdigest()
    tokens = approx_tokens(system_prompt)

    def hit(name: str, probability: float) -> bool:
        return probability > 0 and draw(prompt_hash, ev.id, sample_index, name) < probability

    files = dict(ev.answer)
    applicable = [g for g in data.applicable(ev.id, ev.answer) if g.id in profile.gaps]
    chosen = [g for g in applicable if hit(g.id, profile.mistake_probability(g, system_prompt, tokens))]
    # Noise: one more applicable mistake, whatever the guidance says.
    if applicable and hit("noise", profile.noise):
        extra = applicable[int(draw(prompt_hash, ev.id, sample_index, "noise-pick") * len(applicable))]
        if extra not in chosen:
            chosen.append(extra)
    chosen.sort(key=data.gaps.index)  # apply in the data's order, whatever drew them
    planted: list = []
    for gap in chosen:
        files, changed = gap.apply(files)
        if changed:
            planted.append(gap)
    for effect in profile.side_effects:
        if ev.category in effect.categories and effect.applies_to(ev.answer):
            if hit(effect.id, profile.side_effect_probability(effect, system_prompt, tokens)):
                files, changed = effect.apply(files)
                if changed:
                    planted.append(effect)
    return planted


def unknown_task(profile_name: str) -> SimAnswer:
    """Answer to a message that holds no task of the suite (e.g. ``tuner models ping``)."""
    return SimAnswer(
        text=f"(simulated by tuner sim/{profile_name}: no eval of the suite matches this task) pong",
        planted=(),
        eval_id=None,
    )
