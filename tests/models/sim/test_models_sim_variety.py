"""Answers as varied as a real model's (``variety``): distinct per sample, the same code and the
same verdicts as without it; off by default (the repeats the grading cache relies on)."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from tuner.models import CompletionRequest, ModelSpec, complete_all, parse_files
from tuner.models.sim.answers import simulate
from tuner.models.sim.suite import load_suite
from tuner.models.sim.variety import strip_variety

SAMPLES = 4


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_variety_makes_every_sample_distinct_and_changes_no_code(data, suite):
    prof = data.profile("careful")
    for ev in suite:
        plain = [simulate("careful", prof, data, ev, "", i) for i in range(SAMPLES)]
        varied = [simulate("careful", prof, data, ev, "", i, variety=True) for i in range(SAMPLES)]
        assert len({_sha(a.text) for a in varied}) == SAMPLES, ev.id
        assert [a.text for a in varied] == [
            simulate("careful", prof, data, ev, "", i, variety=True).text for i in range(SAMPLES)
        ]  # replays are exact
        for p, v in zip(plain, varied):
            assert v.planted == p.planted, ev.id  # the planted mistakes are unchanged
            got, want = parse_files(v.text), parse_files(p.text)
            assert got.error is None and set(got.files) == set(want.files), ev.id
            assert got.files != want.files
            assert strip_variety(got.files) == want.files, ev.id  # only comment lines were added


def test_repeats_stay_the_default(data, suite):
    prof = data.profile("perfect")
    ev = suite[0]
    assert len({simulate("perfect", prof, data, ev, "", i).text for i in range(SAMPLES)}) == 1


def test_the_switch_through_litellm_and_the_environment(suite_root, monkeypatch):
    ev = load_suite(suite_root)[0]

    def texts(spec):
        reqs = [CompletionRequest.chat(spec, "", ev.task, sample_index=i) for i in range(SAMPLES)]
        return [c.text for c in complete_all(reqs, cache=None)]

    assert len(set(texts(ModelSpec(model="sim/perfect")))) == 1
    assert len(set(texts(ModelSpec(model="sim/perfect", params={"variety": True})))) == SAMPLES
    monkeypatch.setenv("TUNER_SIM_VARIETY", "1")
    spec = ModelSpec(model="sim/perfect")
    assert spec.params == {"variety": True}  # in the model's identity: run ids and cached responses differ
    assert len(set(texts(spec))) == SAMPLES
    assert ModelSpec(model="openai/gpt-5-mini").params == {}  # real models vary by themselves


@pytest.mark.node
def test_varied_answers_get_the_same_verdicts(root, suite, data, tmp_path, monkeypatch, shared_grading):
    """Graded with and without variety: the same pass/fail and failing step, answer by answer."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    from tuner.evals import load_suite as load_eval_suite
    from tuner.grading import GradeRequest
    from tuner.paths import Project
    from tuner.suites import grade

    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_grading(tmp_path / "cache")))
    project = Project(root)
    eval_suite = load_eval_suite(project)
    evals = {e.id: e for e in eval_suite.evals}
    prof = data.profile("careful")
    # One eval per category (the gaps differ by category): mistakes planted in most.
    picked = list({ev.category: ev for ev in suite}.values())
    requests, keys = [], []
    for ev in picked:
        for i in range(1):
            for variety in (False, True):
                answer = simulate("careful", prof, data, ev, "", i, variety=variety)
                requests.append(GradeRequest(eval=evals[ev.id], files=parse_files(answer.text).files))
                keys.append((ev.id, i, variety, answer.planted))
    results = grade(project, requests, suite=eval_suite, use_cache=True)
    assert all(r.infra_error is None for r in results), [r.infra_error for r in results if r.infra_error]
    verdicts = {
        k: (r.passed, next((s.name for s in r.steps if s.status == "fail"), None)) for k, r in zip(keys, results)
    }
    for (eval_id, i, variety, planted), verdict in verdicts.items():
        if variety:
            assert verdict == verdicts[(eval_id, i, False, planted)], (eval_id, i, planted)
    assert any(not v[0] for v in verdicts.values()) and any(v[0] for v in verdicts.values())
