"""`compare --before/--after NAME@VERSION`: a published guideline file as one side (issue 21), the
form `tune --baseline` and `guidelines diff` already take."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def _publish_by_hand(project: Path, name: str, version: str, set_name: str) -> dict:
    """A published manifest as `tuner publish` writes it (rules by id, variant and hash; the prompt hash)."""
    from tuner.guidelines import load_guidelines
    from tuner.paths import find_project

    g = load_guidelines(find_project())
    prompt = g.compose(g.load_set(set_name))
    manifest = {
        "name": name,
        "version": version,
        "prompt_hash": prompt.hash,
        "rules": [{"id": r.id, "variant": r.variant, "hash": r.hash} for r in prompt.rules],
    }
    folder = project / "guidelines" / "published" / name
    (folder / "history").mkdir(parents=True, exist_ok=True)
    (folder / "history" / f"{version}.json").write_text(json.dumps(manifest))
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return manifest


def test_compare_side_accepts_a_published_name_at_version(project_dir, monkeypatch):
    from types import SimpleNamespace

    from tuner.compare.sides import file_label, resolve_side
    from tuner.errors import InputError, NotFoundError
    from tuner.guidelines import load_guidelines
    from tuner.paths import find_project

    monkeypatch.delenv("TUNER_SUITE", raising=False)  # the project's own guidelines, not a suite's
    manifest = _publish_by_hand(project_dir, "python_rules", "1.0.0", "all-active")
    proj = find_project()
    h = SimpleNamespace(project=proj, guidelines=load_guidelines(proj), existing_store=lambda: pytest.fail("not a run"))
    for token in ("python_rules@1.0.0", "python_rules"):
        side = resolve_side(h, token, 0, "--after")
        assert side.kind == "set" and side.label == token
        assert h.guidelines.compose(side.rule_set).hash == manifest["prompt_hash"]
    assert file_label(resolve_side(h, "python_rules@1.0.0", 0, "--after")) == "python_rules-1.0.0"
    with pytest.raises(NotFoundError, match="python_rules@9.9.9"):
        resolve_side(h, "python_rules@9.9.9", 0, "--after")
    # A rule edited since publishing: running today's text under the published name would measure
    # something that was never published.
    rule = h.guidelines.library.get(manifest["rules"][0]["id"])
    path = project_dir / "guidelines" / rule.path
    path.write_text(path.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    h = SimpleNamespace(project=proj, guidelines=load_guidelines(proj), existing_store=h.existing_store)
    with pytest.raises(InputError, match="changed since it was published"):
        resolve_side(h, "python_rules@1.0.0", 0, "--after")
