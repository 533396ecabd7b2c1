"""Every planted mistake really is a mistake: applied to a reference answer it fails grading.

The simulator's truth assumes a planted gap (or side effect) fails its eval. This grades each
gap's transform on every reference answer it applies to, in one batch, and checks each fails at a
real step (never an infrastructure error). A gap caught only by a lint warning, or by nothing,
shows up here.
"""

from __future__ import annotations

import shutil

import pytest

from tuner.evals import load_suite
from tuner.grading import GradeRequest
from tuner.models.sim.profiles import load_sim_data
from tuner.paths import Project
from tuner.suites import grade

pytestmark = [pytest.mark.node, pytest.mark.slow]


def _planted_outputs(root):
    suite = load_suite(Project(root))
    data = load_sim_data(root / "evals", None)
    edits = [(g.id, g) for g in data.gaps]
    edits += [(e.id, e) for p in data.profiles.values() for e in p.side_effects]
    cases = {}
    for edit_id, edit in edits:
        for ev in suite.evals:
            answer = ev.answer_files()
            files, changed = edit.apply(answer)
            if changed:
                cases[f"{edit_id} @ {ev.id}"] = GradeRequest(eval=ev, files=files)
    return data, cases


def test_every_gap_applies_and_fails_grading(root, tmp_path, monkeypatch, shared_grading):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_grading(tmp_path / "cache")))
    data, cases = _planted_outputs(root)
    applied = {key.split(" @ ")[0] for key in cases}
    assert {g.id for g in data.gaps} <= applied, "a gap that applies to no reference answer plants nothing"
    results = grade(Project(root), list(cases.values()), suite=load_suite(Project(root)))
    passed = [key for key, r in zip(cases, results) if r.passed]
    infra = [(key, r.infra_error) for key, r in zip(cases, results) if r.infra_error]
    assert not infra
    assert not passed, f"planted mistakes that still pass grading: {passed}"
