"""Calling models: bounded concurrency, rate limits, retries, the cache, accounting.

Every model, real or ``sim/*``, goes through ``litellm.acompletion``.

Retries: our own loop built on tenacity (``AsyncRetrying``), with litellm's and the OpenAI SDK's
retries switched off (``num_retries=0``, ``max_retries=0``) so that exactly one layer retries and
the attempt counts are true. Transient failures (429, 408, 5xx, timeouts, connection errors, a
malformed or empty body) are retried up to ``spec.max_retries`` times with exponential backoff and
jitter; a ``Retry-After`` (or ``retry-after-ms``) header from the provider replaces the backoff and
pauses the whole model, not just that request. Permanent failures (400, 401, 403, 404, unsupported
params) are not retried. Either way the result is ``status="infra_error"`` with a one-line, scrubbed
reason; it is excluded from scores and, never being cached, retried on the next run. Failures that
concern the model as a whole (401, 403, 404, 402, unsupported params) also stop further calls to
that model within the batch: its remaining requests fail at once with the same reason instead of
repeating the same doomed call hundreds of times.

What comes back is kept as the provider said it, in three parts: the answer's text, its reasoning
(litellm's ``reasoning_content``, plus a ``<think>`` block split off the text, with or without its
opening tag: ``tuner.models.answers.split_reasoning``) and its tool calls (``[{id, name,
arguments}]``, for a request that offers tools). ``finish_reason`` is kept too: ``length`` means the
answer was cut off at the token limit, which the reader of the answer turns into its failure.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from tuner.models.answers import join_reasoning, split_reasoning
from tuner.models.cache import ResponseCache, cache_key
from tuner.models.failures import Permanent, Transient, classify, describe, retry_after
from tuner.models.messages import build_messages
from tuner.models.panel import ModelSpec, check_models
from tuner.secrets import scrub  # re-exported: provider errors are scrubbed by the one scrubber

__all__ = ["CompletionRequest", "Completion", "Call", "call_here", "complete_many", "complete_all", "scrub"]

_MAX_WAIT_S = 120.0


class CompletionRequest(BaseModel):
    """One generation: ``messages`` are sent exactly as given (``build_messages`` makes them)."""

    model_config = ConfigDict(frozen=True)
    spec: ModelSpec
    messages: tuple[dict, ...]
    sample_index: int = 0
    # The suite a simulated model answers for (the harness's); real models never see it.
    sim_suite: str | None = None
    # Tools offered to the model (OpenAI's shape; the structured answer format offers write_file).
    tools: tuple[dict, ...] | None = None

    @classmethod
    def chat(cls, spec: ModelSpec, system: str, user: str, **kw: Any) -> CompletionRequest:
        """A request from a system prompt and a user message, both sent verbatim."""
        return cls(spec=spec, messages=tuple(build_messages(system, user)), **kw)


class Completion(BaseModel):
    text: str = ""  # the answer's text, its reasoning split off
    reasoning: str | None = None  # the provider's reasoning field and any <think> block of the text
    tool_calls: list[dict] | None = None  # [{id, name, arguments (JSON text as sent)}]
    status: Literal["ok", "infra_error", "skipped"]  # skipped: the command's budget refused the call
    error: str | None = None
    prompt_tokens: int | None = None
    # Of prompt_tokens, those the provider read from its prompt cache (billed at its cached price,
    # which litellm's cost already applies); None when the provider does not say.
    cached_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None  # litellm's price map; None when unknown (and for sim)
    latency_s: float = 0.0  # of the last attempt
    attempts: int = 0  # provider calls made for this result in this run (0 = cache hit / skipped)
    cached: bool = False
    cache_key: str = ""
    model: str = ""
    response_model: str | None = None  # what the provider says answered (e.g. a dated snapshot)
    finish_reason: str | None = None
    # The failure concerns the model as a whole (credentials, access, unknown model): every
    # other call to it would fail the same way.
    fatal: bool = False
    sample_index: int = 0


class _ModelLimiter:
    """Per model: at most ``concurrency`` in flight, at most ``rpm`` starts a minute, and a shared
    pause when the provider asks us (Retry-After) to back off."""

    def __init__(self, spec: ModelSpec):
        self.slots = asyncio.Semaphore(spec.concurrency)
        self.interval = 60.0 / spec.rpm if spec.rpm else 0.0
        self.next_start = 0.0
        self.resume_at = 0.0
        self.fatal: str | None = None
        self._lock = asyncio.Lock()
        # The first call to a model goes alone: if the model cannot be used at all (bad key, no
        # access) one call finds out, not `concurrency` of them at once.
        self.probing = False
        self.probed = asyncio.Event()

    async def pace(self) -> None:
        async with self._lock:  # serialise start times so they are spread evenly
            now = time.monotonic()
            start = max(now, self.next_start, self.resume_at)
            self.next_start = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)

    def pause(self, seconds: float) -> None:
        self.resume_at = max(self.resume_at, time.monotonic() + seconds)


def _wait_seconds(spec: ModelSpec, attempt: int, exc: BaseException | None, limiter: _ModelLimiter) -> float:
    """Retry-After when the provider sent one (applied to the whole model), else backoff + jitter."""
    after = retry_after(exc) if exc is not None else None
    if after is not None:
        wait = min(_MAX_WAIT_S, after) * random.uniform(1.0, 1.1)  # never earlier than asked
        limiter.pause(wait)
        return wait
    base = min(_MAX_WAIT_S, spec.backoff_s * 2 ** (attempt - 1))
    return base / 2 + random.uniform(0, base / 2)


def _call_kwargs(request: CompletionRequest, messages: list[dict]) -> dict[str, Any]:
    spec = request.spec
    kwargs: dict[str, Any] = dict(spec.params)
    if spec.is_sim:
        # A real model varies by itself between samples; the simulator is told which sample this is.
        # At temperature 0 or with a fixed seed a real model answers the same every time, and so
        # does the simulator (every sample is the seed's answer).
        deterministic = spec.params.get("temperature") == 0 or spec.params.get("seed") is not None
        kwargs["sample_index"] = int(spec.params.get("seed") or 0) if deterministic else request.sample_index
        if request.sim_suite:
            kwargs["sim_suite"] = request.sim_suite
    else:
        kwargs.pop("sim_file", None)
    kwargs.update(
        model=spec.model,
        messages=messages,
        timeout=spec.timeout_s,
        num_retries=0,  # litellm's retry wrapper: off, we retry
        max_retries=0,  # the OpenAI SDK's own retries: off, we retry
    )
    if spec.api_base:
        kwargs["api_base"] = spec.api_base
    if request.tools and not spec.is_sim:  # the simulator answers in text: the text reader reads it
        kwargs.update(tools=[dict(t) for t in request.tools], tool_choice="auto", **dict(_tool_call_flags()))
    return kwargs


@lru_cache(maxsize=1)
def _tool_call_flags() -> tuple[tuple[str, Any], ...]:
    """litellm 1.106 imports its MCP gateway (and with it the optional ``mcp`` package) for every
    request that offers tools, and fails without it; its own internal flag skips that step for
    plain function tools. Set only where litellm's code reads it: a litellm that does not know the
    flag would send it on to the provider."""
    import importlib.util

    if importlib.util.find_spec("mcp") is not None:
        return ()
    spec = importlib.util.find_spec("litellm.main")
    if spec is None or not spec.origin:
        return ()
    with open(spec.origin, encoding="utf-8") as source:
        return (("_skip_mcp_handler", True),) if '"_skip_mcp_handler"' in source.read() else ()


def _tool_calls(message: Any) -> list[dict] | None:
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        fn = getattr(call, "function", None)
        calls.append(
            {
                "id": getattr(call, "id", None),
                "name": getattr(fn, "name", None),
                "arguments": getattr(fn, "arguments", None),
            }
        )
    return calls or None


def _read_response(response: Any, spec: ModelSpec, litellm: Any) -> dict[str, Any]:
    try:
        choice = response.choices[0]
        message = choice.message
        content = message.content or ""
        finish = getattr(choice, "finish_reason", None)
        calls = _tool_calls(message)
    except (AttributeError, IndexError, TypeError) as exc:
        raise Transient(f"malformed response: {type(exc).__name__}") from exc
    provided = getattr(message, "reasoning_content", None)
    inline, text = split_reasoning(content)
    reasoning = join_reasoning(provided if isinstance(provided, str) else None, inline)
    if not text.strip() and not calls and not reasoning:
        if finish == "length":
            raise Permanent("empty response (finish_reason=length: raise max_tokens)")
        raise Transient(f"empty response (finish_reason={finish})")
    # Reasoning and no answer (cut off while thinking, or it stopped there) is the model's answer:
    # recorded, and read as a failure that says which.
    usage = getattr(response, "usage", None)
    return {
        "text": text,
        "reasoning": reasoning,
        "tool_calls": calls,
        "prompt_tokens": getattr(usage, "prompt_tokens", None),
        "cached_tokens": _cached_tokens(usage),
        "completion_tokens": getattr(usage, "completion_tokens", None),
        "cost_usd": None if spec.is_sim else _cost(response, litellm),
        "response_model": getattr(response, "model", None),
        "finish_reason": finish,
    }


def _cached_tokens(usage: Any) -> int | None:
    # litellm reads every provider's figure (OpenAI's cached_tokens, Anthropic's cache_read_input_tokens) into this.
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    return int(cached) if isinstance(cached, int) and not isinstance(cached, bool) else None


def _cost(response: Any, litellm: Any) -> float | None:
    # litellm already priced the response while logging it (a few ms): reuse that figure.
    hidden = getattr(response, "_hidden_params", None) or {}
    if "response_cost" in hidden:
        cost = hidden["response_cost"]
        return float(cost) if cost is not None else None
    try:
        cost = litellm.completion_cost(completion_response=response)
    except Exception:  # unmapped model: unknown, not zero
        return None
    return float(cost) if cost is not None else None


async def call_here(spec: ModelSpec, kwargs: dict[str, Any], litellm: Any) -> dict[str, Any]:
    """One attempt, in this process: the answer read into a ``Completion``'s fields, or the
    provider's exception (classified by the caller)."""
    response = await asyncio.wait_for(litellm.acompletion(**kwargs), timeout=spec.timeout_s)
    return _read_response(response, spec, litellm)


# How one attempt is made: ``call_here``, or a cluster's (``tuner.runs.cluster``), which makes it on
# a worker and raises ``failures.Reported`` for a failure read there. Pacing, concurrency, retries,
# the cap and the cache stay here, with the caller.
Call = Callable[[ModelSpec, dict[str, Any], Any], Any]


class _RetryRefused(Exception):
    """The command's cap has no call left for a retry (the error before it is what is reported)."""


async def _generate(
    request: CompletionRequest, key: str, limiter: _ModelLimiter, litellm: Any, budget=None, call: Call = call_here
) -> Completion:
    from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

    spec = request.spec
    base = {"model": spec.model, "sample_index": request.sample_index, "cache_key": key}
    kwargs = _call_kwargs(request, [dict(m) for m in request.messages])
    started = time.monotonic()
    retrying = AsyncRetrying(
        stop=stop_after_attempt(spec.max_retries + 1),
        retry=retry_if_exception(lambda e: classify(e) == "retry"),
        wait=lambda state: _wait_seconds(spec, state.attempt_number, state.outcome.exception(), limiter),
        reraise=True,
    )
    attempts = 0
    async with limiter.slots:  # held across retries: a struggling provider gets less pressure
        probe = not limiter.probing
        limiter.probing = True
        if not probe:
            await limiter.probed.wait()
        if limiter.fatal:  # checked once we hold a slot: an earlier request may have just failed
            return Completion(status="infra_error", error=limiter.fatal, fatal=True, **base)
        last: BaseException | None = None
        try:
            async for attempt in retrying:
                with attempt:
                    # A retry is a provider call: the first was reserved by complete_many, every
                    # further one must be granted by the cap, or the cap is not one.
                    if attempts and budget is not None and not budget.take():
                        raise _RetryRefused() from last
                    attempts += 1
                    await limiter.pace()
                    started = time.monotonic()
                    try:
                        fields = await call(spec, kwargs, litellm)
                    except Exception as exc:
                        last = exc
                        raise
        except Exception as exc:  # classified, recorded as data: never raised to the runner
            refused = isinstance(exc, _RetryRefused)
            exc = last if refused and last is not None else exc
            error = str(exc) if isinstance(exc, (Transient, Permanent)) else describe(exc, spec, litellm)
            if attempts > 1:
                error = f"{error} (after {attempts} attempts)"
            if refused:
                error = f"{error}; no retry: budget spent"
            fatal = classify(exc) == "fatal"
            if fatal:
                limiter.fatal = error
            limiter.probed.set()
            return Completion(
                status="infra_error",
                error=scrub(error),
                attempts=attempts,
                fatal=fatal,
                latency_s=time.monotonic() - started,
                **base,
            )
    limiter.probed.set()
    return Completion(status="ok", attempts=attempts, latency_s=time.monotonic() - started, **fields, **base)


def _extra_key(request: CompletionRequest, memo: dict[tuple, str]) -> str | None:
    if not request.spec.is_sim:
        return None
    key = (request.spec.params.get("sim_file"), request.sim_suite)
    if key not in memo:
        from tuner.models.sim.world import fingerprint

        memo[key] = fingerprint(*key)
    return memo[key]


def _check_cheap(requests: list[CompletionRequest]) -> None:
    """The checks that need no litellm import, each model against the suite it answers for."""
    from pathlib import Path

    by_suite: dict[str | None, dict[str, ModelSpec]] = {}
    for request in requests:
        by_suite.setdefault(request.sim_suite, {})[request.spec.key] = request.spec
    for suite, specs in by_suite.items():
        check_models(list(specs.values()), Path(suite) if suite else None, route=False)


async def complete_many(
    requests: list[CompletionRequest],
    *,
    cache: ResponseCache | None,
    progress: Callable[[Completion], None] | None = None,
    budget=None,
    call: Call | None = None,
) -> list[Completion]:
    """Completions in request order. Raises ProviderError (before any call) for an unusable model
    string; every other failure is an ``infra_error`` Completion. ``budget`` (``tuner.runs.plan.Budget``)
    is asked before each uncached call; a call it refuses is not made and comes back ``skipped``.
    ``call`` makes one attempt (default ``call_here``: in this process)."""
    specs = list({r.spec.key: r.spec for r in requests}.values())
    _check_cheap(requests)
    memo: dict[tuple, str] = {}
    keys = [cache_key(r.spec, list(r.messages), r.sample_index, _extra_key(r, memo), r.tools) for r in requests]
    results: list[Completion | None] = [None] * len(requests)
    todo: list[int] = []
    for i, (request, key) in enumerate(zip(requests, keys)):
        record = cache.get(key) if cache is not None else None
        if record is None:
            todo.append(i)
            continue
        results[i] = Completion(**record, cached=True, cache_key=key, sample_index=request.sample_index)
        if progress:
            progress(results[i])
    if budget is not None:
        # Reserved in request order before any call starts: which calls a cap allows is deterministic.
        allowed = [i for i in todo if budget.take()]
        for i in sorted(set(todo) - set(allowed)):
            results[i] = Completion(
                status="skipped",
                error="budget spent",
                cache_key=keys[i],
                model=requests[i].spec.model,
                sample_index=requests[i].sample_index,
            )
        todo = allowed
    if todo:
        from tuner.models.runtime import litellm_module

        litellm = litellm_module()
        check_models([s for s in specs if not s.is_sim and any(requests[i].spec.key == s.key for i in todo)])
        limiters = {s.key: _ModelLimiter(s) for s in specs}

        async def one(i: int) -> None:
            done = await _generate(
                requests[i], keys[i], limiters[requests[i].spec.key], litellm, budget, call or call_here
            )
            if budget is not None:
                budget.record(done)
            if cache is not None:
                cache.put(keys[i], done)
            results[i] = done
            if progress:
                progress(done)

        await asyncio.gather(*(one(i) for i in todo))
    return [r for r in results if r is not None]


def complete_all(
    requests: list[CompletionRequest],
    *,
    cache: ResponseCache | None,
    progress: Callable[[Completion], None] | None = None,
    budget=None,
    call: Call | None = None,
) -> list[Completion]:
    """Synchronous ``complete_many`` (runs its own event loop)."""
    return asyncio.run(complete_many(requests, cache=cache, progress=progress, budget=budget, call=call))
