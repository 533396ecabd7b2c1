"""sim/* through the same litellm path as real models."""

from __future__ import annotations

import time

from tuner.models import CompletionRequest, ModelSpec, ResponseCache, complete_all, parse_files
from tuner.models.sim.suite import load_suite


def _reqs(suite_root, spec, n=3, system=""):
    ev = load_suite(suite_root)[0]
    return [CompletionRequest.chat(spec, system, ev.task, sample_index=i) for i in range(n)], ev


def test_sim_through_litellm(suite_root):
    reqs, ev = _reqs(suite_root, ModelSpec(model="sim/careful"), n=6)
    out = complete_all(reqs, cache=None)
    assert all(c.status == "ok" and c.cost_usd is None for c in out)
    assert all(c.response_model == "sim/careful" and c.prompt_tokens > 0 and c.completion_tokens > 0 for c in out)
    assert all(set(parse_files(c.text).files) == set(ev.answer) for c in out)
    again = complete_all(reqs, cache=None)
    assert [c.text for c in again] == [c.text for c in out]  # replays are exact


def test_sim_with_warm_cache_makes_no_calls(suite_root, tmp_path, monkeypatch):
    from tuner.models.sim import provider

    calls = []
    real = provider.answer_for
    monkeypatch.setattr(provider, "answer_for", lambda *a, **k: calls.append(1) or real(*a, **k))
    cache = ResponseCache(tmp_path / "r")
    reqs, _ = _reqs(suite_root, ModelSpec(model="sim/expert"), n=4)
    complete_all(reqs, cache=cache)
    assert len(calls) == 4
    out = complete_all(reqs, cache=cache)
    assert len(calls) == 4 and all(c.cached for c in out)


def test_sim_file_param_and_latency_env(suite_root, tmp_path, monkeypatch):
    user = tmp_path / "sim.yaml"
    user.write_text("profiles:\n  slowpoke:\n    cure_strength: 1\n    attention_tokens: 100\n    latency_ms: 300\n")
    spec = ModelSpec(model="sim/slowpoke", params={"sim_file": str(user)})
    reqs, _ = _reqs(suite_root, spec, n=2)
    start = time.monotonic()
    assert all(c.status == "ok" for c in complete_all(reqs, cache=None))
    assert time.monotonic() - start >= 0.3
    monkeypatch.setenv("TUNER_SIM_LATENCY_MS", "0")
    start = time.monotonic()
    complete_all(reqs, cache=None)
    assert time.monotonic() - start < 0.3


def test_cache_key_follows_the_planted_truth(suite_root, tmp_path):
    user = tmp_path / "sim.yaml"
    user.write_text("profiles:\n  p:\n    cure_strength: 1\n    attention_tokens: 100\n")
    cache = ResponseCache(tmp_path / "r")
    reqs, _ = _reqs(suite_root, ModelSpec(model="sim/p", params={"sim_file": str(user)}), n=1)
    first = complete_all(reqs, cache=cache)[0]
    user.write_text("profiles:\n  p:\n    cure_strength: 1\n    attention_tokens: 100\n    noise: 0.5\n")
    second = complete_all(reqs, cache=cache)[0]
    assert not second.cached and second.cache_key != first.cache_key
