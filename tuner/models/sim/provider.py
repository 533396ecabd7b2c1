"""The litellm adapter for ``sim/<profile>`` (the only sim module that imports litellm).

Registered as a litellm custom provider, so a simulated model goes through exactly the same
``litellm.acompletion`` call, retries, cache and accounting as a real one. The suite it answers
for comes with each call (``sim_suite``, set by the client from the harness's suite).
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import litellm
from litellm import CustomLLM, ModelResponse

from tuner.models.sim import variety
from tuner.models.sim.answers import SimAnswer, simulate, unknown_task
from tuner.models.sim.profiles import approx_tokens, load_sim_data
from tuner.models.sim.suite import find_eval, load_suite
from tuner.models.sim.world import default_suite_root

__all__ = ["SimProvider", "register", "answer_for"]

LATENCY_ENV = "TUNER_SIM_LATENCY_MS"


def answer_for(
    profile_name: str,
    messages: list[dict],
    sample_index: int = 0,
    sim_file: str | None = None,
    suite_root: str | None = None,
    variety: bool = False,
) -> tuple[SimAnswer, int]:
    """The simulated answer and the profile's latency in ms (before any env override)."""
    from pathlib import Path

    root = Path(suite_root) if suite_root else default_suite_root()
    data = load_sim_data(root, sim_file)
    profile = data.profile(profile_name)
    system = "\n\n".join(_text(m) for m in messages if m.get("role") == "system")
    users = [_text(m) for m in messages if m.get("role") == "user"]
    # The task is the first user message; each answer after it was shown its error (the repair loop).
    ev = find_eval(load_suite(root), users[0] if users else "")
    if ev is None:
        return unknown_task(profile_name), profile.latency_ms
    turn = 1 + sum(1 for m in messages if m.get("role") == "assistant")
    return simulate(
        profile_name, profile, data, ev, system, sample_index, turn=turn, variety=variety
    ), profile.latency_ms


def _text(message: dict) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):  # OpenAI "parts" form
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content)


class SimProvider(CustomLLM):
    """``sim/<profile>``: deterministic per (prompt, eval, sample index)."""

    def _respond(self, model: str, messages: list, optional_params: dict | None) -> tuple[ModelResponse, float]:
        params = optional_params or {}
        profile_name = model.removeprefix("sim/")
        # The client passes the sample index to sim models only: a real model varies by itself.
        sample_index = int(params.get("sample_index") or 0)
        answer, latency_ms = answer_for(
            profile_name,
            messages,
            sample_index,
            params.get("sim_file"),
            params.get("sim_suite"),
            variety.enabled(params),
        )
        env = os.environ.get(LATENCY_ENV)
        if env:
            latency_ms = int(env)
        prompt_tokens = sum(approx_tokens(_text(m)) for m in messages)
        completion_tokens = approx_tokens(answer.text)
        response = ModelResponse(
            model=f"sim/{profile_name}",
            choices=[{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": answer.text}}],
            usage={
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        )
        # Pre-set so litellm skips pricing an unknown model (an exception path costing milliseconds);
        # the client reports a sim's cost as None regardless.
        response._hidden_params["response_cost"] = 0.0
        return response, latency_ms / 1000.0

    def completion(self, *args: Any, **kwargs: Any) -> ModelResponse:
        response, delay = self._respond(kwargs["model"], kwargs["messages"], kwargs.get("optional_params"))
        if delay:
            time.sleep(delay)
        return response

    async def acompletion(self, *args: Any, **kwargs: Any) -> ModelResponse:
        response, delay = self._respond(kwargs["model"], kwargs["messages"], kwargs.get("optional_params"))
        if delay:
            await asyncio.sleep(delay)
        return response


_handler = SimProvider()


def register(module: Any = litellm) -> None:
    """Add the sim provider to litellm's custom providers (idempotent)."""
    entries = [e for e in (module.custom_provider_map or []) if e.get("provider") != "sim"]
    module.custom_provider_map = [*entries, {"provider": "sim", "custom_handler": _handler}]
    # litellm reads this list when routing; keep it in sync like litellm's own setup does.
    from litellm.utils import custom_llm_setup

    custom_llm_setup()
