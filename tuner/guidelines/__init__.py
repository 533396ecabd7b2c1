"""Guideline fragments, sets, templates and prompt composition."""

from __future__ import annotations

from functools import cached_property

from tuner.guidelines.compose import Prompt, PromptRule, compose
from tuner.guidelines.diff import RuleRef, SelectionDiff, diff_refs, resolve_ref
from tuner.guidelines.placebo import PLACEBO_DOMAIN, placebo_name, placebo_prompt
from tuner.guidelines.rules import DEFAULT_VARIANT, Rule, RuleLibrary, load_rules, normalise_text
from tuner.guidelines.sets import RuleSet, list_sets, load_set
from tuner.guidelines.template import Template, load_template
from tuner.paths import Project, find_project

__all__ = [
    "DEFAULT_VARIANT",
    "Guidelines",
    "Prompt",
    "PLACEBO_DOMAIN",
    "PromptRule",
    "Rule",
    "RuleLibrary",
    "RuleRef",
    "RuleSet",
    "SelectionDiff",
    "Template",
    "compose",
    "diff_refs",
    "list_sets",
    "load_guidelines",
    "load_rules",
    "load_set",
    "load_template",
    "normalise_text",
    "placebo_name",
    "placebo_prompt",
    "resolve_ref",
]


class Guidelines:
    """A project's guidelines folder: rules, sets and templates, loaded once and validated.

    ``categories``: what a rule may target, the suite's (``tuner.evals.suite_categories``); None
    checks no target. Guidelines are told them: they sit below the suite that defines them."""

    def __init__(self, project: Project, categories: list[str] | None = None):
        self.project = project
        self.categories = categories

    @cached_property
    def library(self) -> RuleLibrary:
        return load_rules(self.project.rules_dir, self.categories)

    def load_set(self, name_or_path: str) -> RuleSet:
        return load_set(self.project.sets_dir, name_or_path)

    def set_names(self) -> list[str]:
        return list_sets(self.project.sets_dir)

    def template(self, name: str) -> Template:
        return load_template(self.project.templates_dir, name)

    def compose(self, rule_set: RuleSet) -> Prompt:
        selection = rule_set.select(self.library)
        return compose(self.library, selection, self.template(rule_set.template), set_name=rule_set.name)

    def compose_selection(self, selection: dict[str, str], *, name: str = "", template: str = "default") -> Prompt:
        return self.compose(RuleSet.from_selection(name, selection, template))

    def placebo(self, rule_set: RuleSet, seed: int = 0) -> Prompt:
        """A length-matched placebo of ``rule_set`` (``tuner.guidelines.placebo``): its template, its
        token count, rules of another domain."""
        prompt = self.compose(rule_set)
        return placebo_prompt(self.template(rule_set.template), prompt.tokens, seed=seed, of=rule_set.name)

    def validate(self) -> list[str]:
        """Load every rule, set and template; returns the set names. Raises on the first problem."""
        _ = self.library
        names = self.set_names()
        for name in names:
            self.compose(self.load_set(name))
        return names

    def diff(self, before: str, after: str) -> SelectionDiff:
        return diff_refs(self, before, after)


def load_guidelines(project: Project | None = None, *, categories: list[str] | None = None) -> Guidelines:
    return Guidelines(project or find_project(), categories)
