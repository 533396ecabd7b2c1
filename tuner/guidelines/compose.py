"""Composing a rule selection into the exact system-prompt text.

Deterministic by construction: rules are grouped by their section path, sections follow the
template's order (then alphabetical), rules within a section are ordered by id, text is normalised
to LF. The same selection gives the same bytes, and so the same hash, on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from tuner.guidelines.rules import Rule, RuleLibrary, normalise_text
from tuner.guidelines.template import Template
from tuner.hashing import sha256_json, sha256_text

__all__ = ["Prompt", "PromptRule", "compose"]


class PromptRule(BaseModel):
    """A rule as it went into a prompt."""

    model_config = ConfigDict(frozen=True)

    id: str
    variant: str
    hash: str


class Prompt(BaseModel):
    """A composed system prompt and what defines it."""

    model_config = ConfigDict(frozen=True)

    set_name: str
    template: str
    template_hash: str
    text: str
    rules: tuple[PromptRule, ...]
    hash: str
    tokens: int

    @property
    def rule_ids(self) -> list[str]:
        return [r.id for r in self.rules]

    @property
    def selection(self) -> dict[str, str]:
        return {r.id: r.variant for r in self.rules}

    @property
    def rules_hash(self) -> str:
        return sha256_json([[r.id, r.variant, r.hash] for r in self.rules])


@dataclass
class _Section:
    path: tuple[str, ...]
    rules: list[tuple[Rule, str]] = field(default_factory=list)


def _section_key(path: tuple[str, ...], order: list[str]) -> tuple:
    top = path[0]
    rank = order.index(top) if top in order else len(order)
    return (rank, top.lower(), tuple(p.lower() for p in path[1:]))


def _render(template: Template, chosen: list[tuple[Rule, str]]) -> str:
    sections: dict[tuple[str, ...], _Section] = {}
    for rule, variant in chosen:
        sections.setdefault(rule.section, _Section(rule.section)).rules.append((rule, variant))
    parts: list[str] = []
    if template.header.strip():
        parts.append(normalise_text(template.header))
    printed: set[tuple[str, ...]] = set()
    for section in sorted(sections.values(), key=lambda s: _section_key(s.path, template.section_order)):
        # Print each heading of the path once, even when several sections share a parent.
        for depth in range(1, len(section.path) + 1):
            prefix = section.path[:depth]
            if prefix not in printed:
                printed.add(prefix)
                parts.append(f"{'#' * min(depth + 1, 6)} {prefix[-1]}")
        for rule, variant in sorted(section.rules, key=lambda rv: rv[0].id):
            parts.append(template.rule_format.format(id=rule.id, title=rule.title, text=rule.text(variant)))
    if template.footer.strip():
        parts.append(normalise_text(template.footer))
    return "\n\n".join(parts) + "\n"


def compose(library: RuleLibrary, selection: dict[str, str], template: Template, *, set_name: str = "") -> Prompt:
    """Render ``selection`` ({rule_id: variant}) with ``template``."""
    from tuner.tokens import count_tokens

    chosen = [(library.get(rid), variant) for rid, variant in sorted(selection.items())]
    text = _render(template, chosen)
    return Prompt(
        set_name=set_name,
        template=template.name,
        template_hash=template.hash,
        text=text,
        rules=tuple(PromptRule(id=r.id, variant=v, hash=r.hash(v)) for r, v in chosen),
        hash=sha256_text(text),
        tokens=count_tokens(text),
    )
