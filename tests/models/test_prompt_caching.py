"""Prompt caching in cost: input tokens a provider read from its prompt cache are counted at its
cached price, in what was spent (litellm's usage and cost, against the local fake server) and in
the plan (litellm's cost map); the system prompt, the same for every call of a prompt, goes first."""

from __future__ import annotations

import os

import pytest

from tuner.models import CompletionRequest, ModelSpec, complete_all
from tuner.runs import plan as plan_module
from tuner.runs.plan import Budget, PlanBuilder, price_of

MODEL = "gpt-4o-mini"  # priced in litellm's local map, with a cached input price


def _map(name: str) -> dict:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    return litellm.model_cost[name]


@pytest.fixture
def cached_usage(fake_server):
    fake_server.usage = {
        "prompt_tokens": 2000,
        "completion_tokens": 100,
        "total_tokens": 2100,
        "prompt_tokens_details": {"cached_tokens": 1536},
    }
    yield fake_server
    fake_server.usage = {}


def _call(server, n: int = 1):
    spec = ModelSpec(model=f"openai/{MODEL}", api_base=server.api_base, max_retries=2, backoff_s=0.01, timeout_s=60.0)
    return complete_all(
        [CompletionRequest.chat(spec, "rules " * 10, f"task {i}", sample_index=i) for i in range(n)], cache=None
    )


def test_spent_counts_cached_tokens_at_the_cached_price(cached_usage):
    price = _map(MODEL)
    [c] = _call(cached_usage)
    assert c.status == "ok" and c.prompt_tokens == 2000 and c.cached_tokens == 1536
    expected = (
        464 * price["input_cost_per_token"]
        + 1536 * price["cache_read_input_token_cost"]
        + 100 * price["output_cost_per_token"]
    )
    full = 2000 * price["input_cost_per_token"] + 100 * price["output_cost_per_token"]
    assert c.cost_usd == pytest.approx(expected, rel=1e-6) and c.cost_usd < full
    budget = Budget()
    budget.record(c)
    assert budget.spent["tokens_in_cached"] == 1536 and budget.spent["cost_usd"] == pytest.approx(expected, abs=1e-6)
    assert "1,536 from the provider's prompt cache" in budget.summary_line()


def test_no_cached_tokens_reported_is_the_full_price(fake_server):
    price = _map(MODEL)
    [c] = _call(fake_server)
    assert c.cached_tokens is None
    assert c.cost_usd == pytest.approx(
        11 * price["input_cost_per_token"] + 7 * price["output_cost_per_token"], rel=1e-6
    )


def test_the_system_prompt_goes_first_and_is_the_same_for_every_call(fake_server):
    _call(fake_server, n=3)
    bodies = fake_server.bodies[MODEL][-3:]
    assert all(b["messages"][0]["role"] == "system" for b in bodies)
    assert len({b["messages"][0]["content"] for b in bodies}) == 1  # the cacheable prefix
    assert len({b["messages"][1]["content"] for b in bodies}) == 3  # what varies comes after


def _plan(monkeypatch, model: str, prompt_tokens: int):
    monkeypatch.setattr(plan_module, "_eval_shape", lambda h, eval_id: (100, 300))
    builder = PlanBuilder(None, [ModelSpec(model=model)], "test")
    builder.add("screen", prompt_tokens, ["a", "b", "c", "d"], samples=2, arms=3)
    return builder.build()


def test_the_plan_prices_repeated_system_prompts_at_the_cached_rate(monkeypatch):
    price = _map(MODEL)
    plan = _plan(monkeypatch, f"openai/{MODEL}", 2000)
    calls = 3 * 2 * 4
    assert plan.calls == calls and plan.tokens_in == calls * 2000 + 3 * 2 * 400
    # Each of the 3 prompts pays its system prompt once; its 7 other calls read it from the cache.
    assert plan.tokens_in_cached == (calls - 3) * 2000
    expected = (
        price["input_cost_per_token"] * (plan.tokens_in - plan.tokens_in_cached)
        + price["cache_read_input_token_cost"] * plan.tokens_in_cached
        + price["output_cost_per_token"] * plan.tokens_out
    )
    assert plan.cost_usd == pytest.approx(expected, rel=1e-9)
    assert (
        plan.cost_usd
        < price["input_cost_per_token"] * plan.tokens_in + price["output_cost_per_token"] * plan.tokens_out
    )
    assert any("cached rate" in line for line in plan.lines()) and any("cached)" in line for line in plan.lines())
    assert plan.as_dict()["tokens_in_cached"] == plan.tokens_in_cached


def test_no_cached_rate_below_the_providers_minimum_or_without_automatic_caching(monkeypatch):
    short = _plan(monkeypatch, f"openai/{MODEL}", 500)  # under 1,024 tokens: OpenAI caches nothing
    assert short.tokens_in_cached == 0
    # Anthropic caches only what a request marks, which tuner does not: the full input price.
    assert price_of(ModelSpec(model="anthropic/claude-3-5-haiku-20241022")).cached_input_per_token is None
    assert (
        price_of(ModelSpec(model=f"openai/{MODEL}")).cached_input_per_token
        == _map(MODEL)["cache_read_input_token_cost"]
    )
    assert price_of(ModelSpec(model="sim/careful")).cached_input_per_token is None


def _budget_phase(monkeypatch, model: str, prompt_tokens: int, prompts: int | None, models: int = 2):
    monkeypatch.setattr(plan_module, "_eval_shape", lambda h, eval_id: (100, 300))
    builder = PlanBuilder(None, [ModelSpec(model=model)] * models, "test")
    phase = builder.add_calls("check", 120, prompt_tokens, ["a", "b", "c", "d"], prompts=prompts)
    return phase, builder.build()


def test_a_phase_known_by_its_calls_prices_its_repeated_prompts_at_the_cached_rate(monkeypatch):
    price = _map(MODEL)
    phase, plan = _budget_phase(monkeypatch, f"openai/{MODEL}", 2000, prompts=2)
    # 2 prompts on each of 2 models pay their system prompt once: the other 116 calls read it cached.
    assert phase.tokens_in == 120 * 2100 and phase.tokens_in_cached == (120 - 2 * 2) * 2000
    expected = (
        price["input_cost_per_token"] * (plan.tokens_in - plan.tokens_in_cached)
        + price["cache_read_input_token_cost"] * plan.tokens_in_cached
        + price["output_cost_per_token"] * plan.tokens_out
    )
    assert plan.cost_usd == pytest.approx(expected, rel=1e-9)
    uncached, full = _budget_phase(monkeypatch, f"openai/{MODEL}", 2000, prompts=None)
    assert uncached.tokens_in_cached == 0 and plan.cost_usd < full.cost_usd  # unknown prompts: the full price
    assert _budget_phase(monkeypatch, f"openai/{MODEL}", 500, prompts=2)[0].tokens_in_cached == 0  # under 1,024
    # More prompts than calls: nothing repeats.
    assert _budget_phase(monkeypatch, f"openai/{MODEL}", 2000, prompts=100)[0].tokens_in_cached == 0
