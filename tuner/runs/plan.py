"""What a command will spend before it spends it, and one cap over all of it.

A ``Plan`` lists, per phase, the provider calls a command makes at most and the tokens they carry:
input from the composed prompt plus each eval's user message (task text and answer format), output
from the size of each eval's reference answer (a model's answer is about as long). Prices come from
litellm's local cost map (``sim/*`` costs nothing; a model the map does not know is "unknown", never
$0). A ``Budget`` is the cap: every provider call takes one call from it before it is made
(``tuner.models.client``), and a call it refuses is not made; the runner records what was done and
raises ``BudgetSpentError`` (exit 4), so the same command with a larger cap resumes from there.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache

from pydantic import BaseModel

from tuner.errors import InputError

__all__ = ["Budget", "ModelPrice", "Phase", "Plan", "PlanBuilder", "price_of", "configs_plan"]


class ModelPrice(BaseModel):
    model: str
    input_per_token: float | None  # USD; None: litellm's cost map does not know the model
    output_per_token: float | None
    # An input token read from the provider's prompt cache; None: no caching counted for this model.
    cached_input_per_token: float | None = None

    def input_cost(self, tokens: int, cached: int) -> float:
        """``tokens`` input tokens, ``cached`` of them from the prompt cache (at its price, when known)."""
        assert self.input_per_token is not None
        rate = self.cached_input_per_token if self.cached_input_per_token is not None else self.input_per_token
        return self.input_per_token * (tokens - cached) + rate * cached

    @property
    def known(self) -> bool:
        return self.input_per_token is not None and self.output_per_token is not None


# Providers that cache a repeated prompt prefix by themselves (no request flag): OpenAI and Azure
# OpenAI from 1,024 tokens, DeepSeek. Others (Anthropic) cache only what the request marks, which
# tuner does not: their calls are planned at the full input price.
_AUTO_CACHING = ("openai", "azure", "deepseek")
CACHE_MIN_TOKENS = 1024


@lru_cache(maxsize=64)
def _map_price(model: str) -> tuple[float, float, float | None] | None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the map over the network
    import litellm

    candidates = [model, model.split("/", 1)[1] if "/" in model else model]
    for name in candidates:
        entry = litellm.model_cost.get(name)
        if entry and entry.get("input_cost_per_token") is not None:
            cached = entry.get("cache_read_input_token_cost")
            caches = str(entry.get("litellm_provider", "")).startswith(_AUTO_CACHING) and cached is not None
            return (
                float(entry["input_cost_per_token"]),
                float(entry.get("output_cost_per_token") or 0.0),
                float(cached) if caches else None,
            )
    return None


def price_of(spec) -> ModelPrice:
    """USD per input and output token of ``spec`` (a ``ModelSpec``); ``sim/*`` is free."""
    if spec.is_sim:
        return ModelPrice(model=spec.label, input_per_token=0.0, output_per_token=0.0)
    found = _map_price(spec.model)
    return ModelPrice(
        model=spec.label,
        input_per_token=found[0] if found else None,
        output_per_token=found[1] if found else None,
        cached_input_per_token=found[2] if found else None,
    )


class Phase(BaseModel):
    name: str
    calls: int
    tokens_in: int
    tokens_out: int
    # Of tokens_in, the system prompt repeated after each prompt's first call (from CACHE_MIN_TOKENS
    # on): what a provider that caches prompt prefixes reads from its cache.
    tokens_in_cached: int = 0
    note: str = ""
    only_if: str = ""
    """Empty: the phase always runs (up to its calls). Otherwise the finding that makes it run at all
    (tune's regression check runs only if its screening finds a change): a plan that only said "at
    most" would overstate what most runs cost."""


class Plan(BaseModel):
    command: str
    phases: list[Phase]
    prices: list[ModelPrice]
    cap_calls: int | None = None
    cap_usd: float | None = None
    # What the budget decides, per question family (``tuner.planning.Detectable`` dumps, each with its
    # ``line``), and the effect ``--decide`` sized the cap for ({"effect", "calls"}), if it was given.
    decides: list[dict] = []
    decide: dict | None = None

    @property
    def calls(self) -> int:
        """Calls at most: the phases' sum, or the cap when it is lower."""
        return self._capped(sum(p.calls for p in self.phases))

    @property
    def calls_always(self) -> int:
        """Calls at most of the phases that run whatever is found (``only_if`` empty)."""
        return self._capped(sum(p.calls for p in self.phases if not p.only_if))

    def _capped(self, calls: int) -> int:
        return min(calls, self.cap_calls) if self.cap_calls is not None else calls

    @property
    def tokens_in(self) -> int:
        return sum(p.tokens_in for p in self.phases)

    @property
    def tokens_out(self) -> int:
        return sum(p.tokens_out for p in self.phases)

    @property
    def tokens_in_cached(self) -> int:
        return sum(p.tokens_in_cached for p in self.phases)

    @property
    def cost_usd(self) -> float | None:
        """The phases' cost, every model taking an equal share of the calls; None when a price is unknown."""
        if not self.prices or not all(p.known for p in self.prices):
            return None
        share = 1 / len(self.prices)
        return sum(
            share * (p.input_cost(self.tokens_in, self.tokens_in_cached) + p.output_per_token * self.tokens_out)
            for p in self.prices
        )

    def per_model(self) -> list[dict]:
        """Each model's equal share of the calls and tokens (at most), and what it costs at its price."""
        n = max(1, len(self.prices))
        out = []
        for p in self.prices:
            tin, tout = round(self.tokens_in / n), round(self.tokens_out / n)
            cost = p.input_cost(tin, round(self.tokens_in_cached / n)) + p.output_per_token * tout if p.known else None
            out.append(
                {"model": p.model, "calls": -(-self.calls // n), "tokens_in": tin, "tokens_out": tout, "cost_usd": cost}
            )
        return out

    @property
    def usd_per_call(self) -> float | None:
        total = sum(p.calls for p in self.phases)
        cost = self.cost_usd
        return None if cost is None or not total else cost / total

    def as_dict(self) -> dict:
        return {
            "command": self.command,
            "calls_at_most": self.calls,
            "calls_always": self.calls_always,
            "tokens_in": self.tokens_in,
            "tokens_in_cached": self.tokens_in_cached,
            "tokens_out": self.tokens_out,
            "cost_usd": self.cost_usd,
            "cap": {"calls": self.cap_calls, "usd": self.cap_usd},
            "phases": [p.model_dump() for p in self.phases],
            "decides": self.decides,
            "decide": self.decide,
            "per_model": self.per_model(),
            "prices": [
                {
                    "model": p.model,
                    "input_per_mtok": _per_million(p.input_per_token),
                    "output_per_mtok": _per_million(p.output_per_token),
                    # Only where prompt caching is counted for the model.
                    **(
                        {"cached_input_per_mtok": _per_million(p.cached_input_per_token)}
                        if p.cached_input_per_token is not None
                        else {}
                    ),
                }
                for p in self.prices
            ],
        }

    def lines(self) -> list[str]:
        """The plan as a person reads it."""
        from tuner.runs.usage import plural

        out = [
            f"plan: {self.command} makes at most {plural(self.calls, 'provider call')}, "
            f"~{self.tokens_in:,} tokens in, ~{self.tokens_out:,} out; cost {_usd(self.cost_usd)}"
        ]
        if self.calls_always < self.calls:
            out.append(
                f"  of these, {self.calls_always:,} always; the other {self.calls - self.calls_always:,} only "
                "if what it finds calls for them (the phases marked 'only if')"
            )
        for p in self.phases:
            note = "; ".join(x for x in (f"only if {p.only_if}" if p.only_if else "", p.note) if x)
            note = f" ({note})" if note else ""
            out.append(f"  {p.name}: {plural(p.calls, 'call')}, ~{p.tokens_in:,} in, ~{p.tokens_out:,} out{note}")
        if self.tokens_in_cached and any(p.cached_input_per_token is not None for p in self.prices):
            out.append(
                f"  ~{self.tokens_in_cached:,} of the tokens in repeat a prompt the provider caches: "
                "priced at its cached rate"
            )
        for d in self.decides:
            out.append(f"  decides: {d['line']}")
        if self.decide is not None:
            out.append(
                f"  --decide {self.decide['effect']:g}: the cap is sized so an effect of {self.decide['effect'] * 100:g} points "
                f"is decided with 80% power: {plural(self.decide['calls'], 'call')}"
            )
            for m in self.per_model():
                out.append(
                    f"  per model {m['model']}: {plural(m['calls'], 'call')}, ~{m['tokens_in']:,} tokens in, "
                    f"~{m['tokens_out']:,} out, cost {_usd(m['cost_usd'])}"
                )
        for price in self.prices:
            if price.known:
                cached = (
                    f" (${_per_million(price.cached_input_per_token):.3f} cached)"
                    if price.cached_input_per_token is not None
                    else ""
                )
                out.append(
                    f"  price {price.model}: ${_per_million(price.input_per_token):.2f} in{cached}, "
                    f"${_per_million(price.output_per_token):.2f} out per million tokens"
                )
            else:
                out.append(f"  price {price.model}: unknown (not in litellm's cost map)")
        caps = [
            plural(self.cap_calls, "call") if self.cap_calls is not None else "",
            f"${self.cap_usd:.2f}" if self.cap_usd is not None else "",
        ]
        if any(caps):
            out.append("  cap: " + ", ".join(c for c in caps if c) + " over the whole command")
        return out


def _per_million(value: float | None) -> float | None:
    return None if value is None else value * 1_000_000


def _usd(value: float | None) -> str:
    return "unknown (a model's price is not in litellm's cost map)" if value is None else f"${value:,.2f}"


class PlanBuilder:
    """Phases from prompts and evals: ``add`` counts every (prompt, eval, sample, model) call."""

    def __init__(self, h, specs: list, command: str):
        self.h, self.specs, self.command = h, list(specs), command
        self.phases: list[Phase] = []

    def _shape(self, eval_ids) -> tuple[int, int]:
        """(user-message tokens, answer tokens) summed over ``eval_ids``."""
        shapes = [_eval_shape(self.h, e) for e in eval_ids]
        return sum(s[0] for s in shapes), sum(s[1] for s in shapes)

    def add(
        self,
        name: str,
        prompt_tokens: int,
        eval_ids,
        samples: int,
        *,
        arms: int = 1,
        note: str = "",
        models: int | None = None,
    ) -> Phase:
        """``arms`` prompts x ``eval_ids`` x ``samples`` on ``models`` models (default: every model)."""
        eval_ids = list(eval_ids)
        user, answer = self._shape(eval_ids)
        # The repair loop makes up to ``turns`` calls a sample, each resending the exchange so far
        # (turn t's input holds t - 1 answers and feedback messages besides the prompt and task).
        turns = getattr(self.h, "turns", 1)
        n = arms * samples * (len(self.specs) if models is None else models)
        one_in = prompt_tokens * len(eval_ids) + user
        tokens_in = sum(one_in + (t - 1) * (answer + _FEEDBACK_TOKENS * len(eval_ids)) for t in range(1, turns + 1))
        if turns > 1:
            note = f"{note}; " if note else ""
            note += f"up to {turns} turns a sample: the repair loop"
        calls = n * len(eval_ids) * turns
        # Each (prompt, model) pays its system prompt in full once; its other calls repeat it.
        repeats = max(0, calls - n // samples) if samples else 0
        phase = Phase(
            name=name,
            calls=calls,
            tokens_in=n * tokens_in,
            tokens_out=n * answer * turns,
            tokens_in_cached=_cacheable(prompt_tokens) * repeats,
            note=note,
        )
        self.phases.append(phase)
        return phase

    def add_calls(
        self,
        name: str,
        calls: int,
        prompt_tokens: int,
        eval_ids,
        *,
        note: str = "",
        only_if: str = "",
        prompts: int | None = None,
    ) -> Phase:
        """A phase known by its call budget: tokens at the average call over ``eval_ids``.
        ``prompts``: how many distinct system prompts the calls use on each model; each (prompt,
        model) pays its system prompt in full once and reads it from a caching provider's cache on
        its other calls. None (unknown: every call may have a prompt of its own, as the rule-effect
        engine's random drops give): none counted as cached, so the plan errs high."""
        eval_ids = list(eval_ids)
        user, answer = self._shape(eval_ids)
        per_in = prompt_tokens + (user / len(eval_ids) if eval_ids else 0)
        per_out = answer / len(eval_ids) if eval_ids else 0
        first = prompts * max(1, len(self.specs)) if prompts is not None else calls
        cached = _cacheable(prompt_tokens) * max(0, calls - first)
        phase = Phase(
            name=name,
            calls=calls,
            tokens_in=round(calls * per_in),
            tokens_out=round(calls * per_out),
            note=note,
            only_if=only_if,
            tokens_in_cached=cached,
        )
        self.phases.append(phase)
        return phase

    def build(self, *, cap_calls: int | None = None, cap_usd: float | None = None) -> Plan:
        return Plan(
            command=self.command,
            phases=self.phases,
            prices=[price_of(s) for s in self.specs],
            cap_calls=cap_calls,
            cap_usd=cap_usd,
        )


def _cacheable(prompt_tokens: int) -> int:
    """The system prompt's tokens a caching provider reads from its cache on a repeat (it caches
    prefixes from CACHE_MIN_TOKENS on)."""
    return prompt_tokens if prompt_tokens >= CACHE_MIN_TOKENS else 0


# A repair turn's feedback message at its bound (tuner.runs.repair.FEEDBACK_LIMIT), in tokens.
_FEEDBACK_TOKENS = 600


def _eval_shape(h, eval_id: str) -> tuple[int, int]:
    """(tokens of the eval's user message, tokens of its reference answer), counted once per harness."""
    memo = h.__dict__.setdefault("_plan_shapes", {})
    if eval_id not in memo:
        from tuner.models import render_files, user_message
        from tuner.tokens import count_tokens

        ev = h.suite.get(eval_id)
        memo[eval_id] = (
            count_tokens(user_message(ev.task, h.suite.answer_instructions())),
            count_tokens(render_files(ev.answer_files())),
        )
    return memo[eval_id]


def configs_plan(h, configs: list, command: str) -> Plan:
    """The plan of one batch of ``RunConfig`` (run, compare, publish): every configured call."""
    specs = list({c.spec.key: c.spec for c in configs}.values())
    builder = PlanBuilder(h, specs, command)
    for c in configs:
        prompt = c.prompt or h.guidelines.compose(c.rule_set)
        builder.add(f"{c.rule_set.name} · {c.spec.label}", prompt.tokens, c.eval_ids, c.samples, models=1)
    if len(configs) > 4:  # many prompts (an ablation): one line per model reads better than one per prompt
        by_model: dict[str, list[Phase]] = {}
        for c, phase in zip(configs, builder.phases):
            by_model.setdefault(c.spec.label, []).append(phase)
        builder.phases = [
            Phase(
                name=f"{len(ps)} prompts · {label}",
                calls=sum(p.calls for p in ps),
                tokens_in=sum(p.tokens_in for p in ps),
                tokens_out=sum(p.tokens_out for p in ps),
                tokens_in_cached=sum(p.tokens_in_cached for p in ps),
            )
            for label, ps in by_model.items()
        ]
    budget = getattr(h, "budget", None)
    return builder.build(cap_calls=budget.calls if budget else None, cap_usd=budget.usd if budget else None)


class Budget:
    """One cap over a whole command: calls and/or USD, and what was spent (calls, tokens, cost).

    ``take`` is asked before each provider call, retries included (the client asks again before
    each retry), so the cap is hard: no attempt is made that it did not grant. ``record`` adds
    what the call turned out to cost (a request that was never sent gives its reservation back)."""

    def __init__(self, calls: int | None = None, usd: float | None = None):
        self.calls, self.usd = calls, usd
        self.usd_per_call: float | None = None  # the plan's estimate, to keep a call from overrunning ``usd``
        self.plan: Plan | None = None  # the plan shown before the first call
        self.spent_calls = 0
        self.spent_usd = 0.0
        self.unpriced_calls = 0  # calls whose cost the provider's response did not tell
        self.tokens_in = 0
        self.tokens_in_cached = 0  # of tokens_in, read from the provider's prompt cache (as it reported)
        self.tokens_out = 0
        self.refused = 0

    @property
    def remaining_calls(self) -> int | None:
        return None if self.calls is None else max(0, self.calls - self.spent_calls)

    def set_plan(self, plan: Plan) -> None:
        """Check the cap can be honoured for these models, and learn the plan's cost per call."""
        if self.usd is not None:
            unknown = [p.model for p in plan.prices if not p.known]
            if unknown:
                raise InputError(
                    f"--budget-usd: litellm's cost map has no price for {unknown[0]}, so a dollar cap "
                    "cannot be honoured; use --budget-calls"
                )
        self.usd_per_call = plan.usd_per_call

    def take(self) -> bool:
        if self.calls is not None and self.spent_calls + 1 > self.calls:
            self.refused += 1
            return False
        if self.usd is not None and self.spent_usd + (self.usd_per_call or 0.0) > self.usd:
            self.refused += 1
            return False
        self.spent_calls += 1
        return True

    def record(self, completion) -> None:
        if not completion.attempts:  # reserved, never sent (a fatal error elsewhere stopped it)
            self.spent_calls -= 1
        self.tokens_in += completion.prompt_tokens or 0
        self.tokens_in_cached += getattr(completion, "cached_tokens", None) or 0
        self.tokens_out += completion.completion_tokens or 0
        if completion.cost_usd is not None:
            self.spent_usd += completion.cost_usd
        elif completion.attempts and not completion.model.startswith("sim/"):
            self.unpriced_calls += completion.attempts

    @property
    def spent(self) -> dict:
        """Calls, tokens and cost spent (cost None when some call's price was unknown)."""
        return {
            "calls": self.spent_calls,
            "tokens_in": self.tokens_in,
            "tokens_in_cached": self.tokens_in_cached,
            "tokens_out": self.tokens_out,
            "cost_usd": None if self.unpriced_calls else round(self.spent_usd, 6),
            "cap": {"calls": self.calls, "usd": self.usd},
            "refused_calls": self.refused,
        }

    def summary_line(self) -> str:
        from tuner.runs.usage import fmt_cost, plural

        planned = ""
        if self.plan is not None:
            always = self.plan.calls_always
            planned = (
                f" (plan: at most {self.plan.calls:,}"
                + (f", {always:,} of them always" if always < self.plan.calls else "")
                + ")"
            )
        cached = f" ({self.tokens_in_cached:,} from the provider's prompt cache)" if self.tokens_in_cached else ""
        return (
            f"spent: {plural(self.spent_calls, 'provider call')}{planned}, {self.tokens_in:,} tokens in{cached}, "
            f"{self.tokens_out:,} out, cost {fmt_cost(self.spent['cost_usd'])}"
        )


PlanHook = Callable[[list], None]
