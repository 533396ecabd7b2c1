"""The real-provider path, against a local OpenAI-compatible server (tests/models/fake_openai.py)."""

from __future__ import annotations

import time

import pytest

from tuner.errors import ProviderError
from tuner.models import Completion, CompletionRequest, ModelSpec, ResponseCache, complete_all, scrub


def _spec(server, mode: str, **kw) -> ModelSpec:
    settings = {"max_retries": 2, "backoff_s": 0.01, "timeout_s": 10.0} | kw
    return ModelSpec(model=f"openai/{mode}", api_base=server.api_base, params={"temperature": 0}, **settings)


def _run(spec: ModelSpec, n: int = 1, cache=None) -> list[Completion]:
    reqs = [CompletionRequest.chat(spec, "rules", f"task {i}", sample_index=i) for i in range(n)]
    return complete_all(reqs, cache=cache)


def test_normal_call_is_ok_with_tokens(fake_server):
    [c] = _run(_spec(fake_server, "normal"))
    assert c.status == "ok", c.error
    assert "## convex/a.ts" in c.text
    assert (c.prompt_tokens, c.completion_tokens) == (11, 7)
    assert c.attempts == 1 and not c.cached
    assert c.cost_usd is None  # a model litellm has no price for: unknown, never 0
    assert c.model == "openai/normal"
    body = fake_server.bodies["normal"][-1]
    # Sent verbatim: the client adds nothing (it once appended the answer format a second time).
    assert body["messages"] == [{"role": "system", "content": "rules"}, {"role": "user", "content": "task 0"}]


def test_5xx_is_retried_then_succeeds(fake_server):
    [c] = _run(_spec(fake_server, "flaky500"))
    assert c.status == "ok" and c.attempts == 2
    assert fake_server.counts["flaky500"] == 2


def test_exhausted_retries_are_infra_errors(fake_server):
    before = fake_server.counts["r500"]
    [c] = _run(_spec(fake_server, "r500", max_retries=2))
    assert c.status == "infra_error" and c.attempts == 3
    assert fake_server.counts["r500"] - before == 3
    assert "500" in c.error and "after 3 attempts" in c.error


def test_retry_after_is_honoured(fake_server):
    [c] = _run(_spec(fake_server, "r429"))
    assert c.status == "ok" and c.attempts == 2
    first, second = fake_server.times["r429"][:2]
    assert second - first >= 1.0  # the header said 1 s; our own backoff would be ~10 ms


def test_retry_after_ms_and_exhaustion(fake_server):
    [c] = _run(_spec(fake_server, "always429", max_retries=3))
    assert c.status == "infra_error" and c.attempts == 4
    gaps = [b - a for a, b in zip(fake_server.times["always429"], fake_server.times["always429"][1:])]
    assert min(gaps[-3:]) >= 0.05


def test_malformed_body_is_infra_error(fake_server):
    [c] = _run(_spec(fake_server, "malformed", max_retries=1))
    assert c.status == "infra_error" and c.text == ""
    assert fake_server.counts["malformed"] == 2  # retried once: may be transient


def test_empty_content_is_infra_error(fake_server):
    [c] = _run(_spec(fake_server, "empty", max_retries=1))
    assert c.status == "infra_error" and "empty response" in c.error


def test_timeout_is_retried_and_recorded(fake_server):
    start = time.monotonic()
    [c] = _run(_spec(fake_server, "slow", timeout_s=0.3, max_retries=1))
    assert c.status == "infra_error" and "timeout" in c.error.lower()
    assert c.attempts == 2 and time.monotonic() - start < 1.9


def test_auth_error_is_one_line_scrubbed_and_stops_the_model(fake_server):
    before = fake_server.counts["auth"]
    out = _run(_spec(fake_server, "auth", concurrency=1), n=5)
    assert all(c.status == "infra_error" for c in out)
    assert fake_server.counts["auth"] - before == 1  # the other four never call: same doomed request
    assert [c.attempts for c in out] == [1, 0, 0, 0, 0]
    for c in out:
        assert "authentication failed" in c.error and "\n" not in c.error
        assert "sk-abcdef" not in c.error and "sk-zzzz" not in c.error


def test_no_sdk_retries_behind_our_back(fake_server):
    before = fake_server.counts["r500"]
    _run(_spec(fake_server, "r500", max_retries=0))
    assert fake_server.counts["r500"] - before == 1


def test_concurrency_bound(fake_server, monkeypatch):
    import fake_openai

    monkeypatch.setattr(fake_openai, "SLOW_S", 0.3)
    start = time.monotonic()
    out = _run(_spec(fake_server, "slow", concurrency=2), n=4)
    assert all(c.status == "ok" for c in out)
    assert time.monotonic() - start >= 0.55  # 4 calls, 2 at a time, 0.3 s each


def test_rpm_spacing(fake_server):
    start = time.monotonic()
    _run(_spec(fake_server, "normal", rpm=600), n=4)  # one start every 0.1 s
    assert time.monotonic() - start >= 0.28


def test_cache_makes_rerun_free(fake_server, tmp_path):
    cache = ResponseCache(tmp_path / "responses")
    spec = _spec(fake_server, "normal")
    before = fake_server.counts["normal"]
    first = _run(spec, n=3, cache=cache)
    assert fake_server.counts["normal"] - before == 3
    again = _run(spec, n=3, cache=cache)
    assert fake_server.counts["normal"] - before == 3  # zero new provider calls
    assert all(c.cached and c.attempts == 0 for c in again)
    assert [c.text for c in again] == [c.text for c in first]
    assert cache.hits == 3 and cache.misses == 3


def test_infra_errors_are_not_cached(fake_server, tmp_path):
    cache = ResponseCache(tmp_path / "responses")
    _run(_spec(fake_server, "r500", max_retries=0), cache=cache)
    assert len(cache) == 0


def test_unknown_provider_fails_before_any_call():
    with pytest.raises(ProviderError, match="nosuchprovider/x"):
        _run(ModelSpec(model="nosuchprovider/x"))
    with pytest.raises(ProviderError, match="provider prefix"):
        _run(ModelSpec(model="gpt-4o"))


def test_unknown_sim_profile_fails_before_any_call():
    with pytest.raises(ProviderError, match="sim/nobody"):
        _run(ModelSpec(model="sim/nobody"))


def test_progress_called_for_each(fake_server):
    seen = []
    spec = _spec(fake_server, "normal")
    reqs = [CompletionRequest.chat(spec, "", f"t{i}", sample_index=i) for i in range(3)]
    complete_all(reqs, cache=None, progress=seen.append)
    assert len(seen) == 3


def test_scrub():
    text = 'Error: key sk-proj-ABCDEFGH12345678 header "Authorization: Bearer abc.def" api_key=xyz123\nmore'
    out = scrub(text)
    assert "ABCDEFGH" not in out and "abc.def" not in out and "xyz123" not in out and "\n" not in out


# What comes back as real models write it (issue 34) ---------------------------------------------


def _scripted(server, reply: dict, tools=None) -> Completion:
    server.script = lambda request: reply
    spec = _spec(server, "scripted", max_retries=0)
    [c] = complete_all([CompletionRequest.chat(spec, "rules", "task", tools=tools)], cache=None)
    return c


def test_reasoning_is_kept_apart_from_the_answer(fake_server):
    c = _scripted(
        fake_server,
        {
            "content": "<think>draft:\n```ts\n// convex/x.ts\nbad\n```\n</think>\n\n# Files\n",
            "reasoning_content": "From the provider's field.",
        },
    )
    assert c.status == "ok", c.error
    assert c.text == "# Files\n" and "<think>" not in c.text
    assert c.reasoning.startswith("From the provider's field.") and "// convex/x.ts" in c.reasoning


def test_a_reply_without_the_opening_think_tag(fake_server):
    c = _scripted(fake_server, {"content": "I should write one file.\n</think>\n## app/a.py\n```python\nA = 1\n```\n"})
    assert c.reasoning == "I should write one file." and c.text.startswith("## app/a.py")


def test_cut_off_while_reasoning_is_an_answer_not_an_outage(fake_server):
    c = _scripted(fake_server, {"content": "<think>Let me consider", "finish_reason": "length"})
    assert c.status == "ok" and c.text == "" and c.reasoning == "Let me consider" and c.finish_reason == "length"
    # Nothing at all (no reasoning either) stays what it was: a provider failure, said why.
    c = _scripted(fake_server, {"content": "", "finish_reason": "length"})
    assert c.status == "infra_error" and "max_tokens" in c.error


def test_tools_are_offered_and_tool_calls_come_back(fake_server):
    from tuner.models.answers import WRITE_FILE

    call = {"name": "write_file", "arguments": '{"path": "app/a.py", "content": "A = 1\\n"}'}
    c = _scripted(fake_server, {"content": None, "tool_calls": [call]}, tools=(WRITE_FILE,))
    assert c.status == "ok", c.error
    assert c.tool_calls == [{"id": "call_0", "name": "write_file", "arguments": call["arguments"]}]
    assert c.text == "" and c.finish_reason == "tool_calls"
    body = fake_server.bodies["scripted"][-1]
    assert body["tools"] == [WRITE_FILE] and body["tool_choice"] == "auto"
    assert not any(k.startswith("_") for k in body)  # litellm's internal flags never reach the provider


def test_tools_are_part_of_the_cache_key(fake_server, tmp_path):
    from tuner.models.answers import WRITE_FILE

    fake_server.script = lambda request: {"content": "# Files\n"}
    spec = _spec(fake_server, "scripted", max_retries=0)
    with ResponseCache(tmp_path / "c") as cache:
        plain, tooled = complete_all(
            [CompletionRequest.chat(spec, "r", "t"), CompletionRequest.chat(spec, "r", "t", tools=(WRITE_FILE,))],
            cache=cache,
        )
        assert plain.cache_key != tooled.cache_key
        [again] = complete_all([CompletionRequest.chat(spec, "r", "t", tools=(WRITE_FILE,))], cache=cache)
        assert again.cached and again.cache_key == tooled.cache_key
