"""DSPy, set up the project's way, and the language models the analyst and proposer run on.

DSPy is imported only here, after its cache is pointed at the project's cache folder (it would
otherwise write ``~/.dspy_cache``) and after litellm's offline settings are in place. A real model
is any litellm model string, checked before anything is written; ``sim/analyst`` and
``sim/proposer`` are the offline simulators: a DSPy engine that answers from the planted truth in
the very format DSPy's adapter asks for, so the same program parses both.
"""

from __future__ import annotations

import json
import os
import re
import threading
from typing import Any

from tuner.errors import ProviderError

__all__ = ["dspy_module", "make_lm", "SimulatedEngine", "is_simulated", "SIM_ANALYST", "SIM_PROPOSER"]

SIM_ANALYST = "sim/analyst"
SIM_PROPOSER = "sim/proposer"
_lock = threading.Lock()


def is_simulated(model: str) -> bool:
    return model.startswith("sim/")


def dspy_module(cache_dir) -> Any:
    """Import DSPy with its cache folder under ``cache_dir`` (never $HOME) and its disk cache off."""
    from tuner.models.runtime import prepare_environment

    prepare_environment()
    # Read by DSPy at import time; configure_cache below covers a DSPy imported earlier.
    os.environ["DSPY_CACHEDIR"] = str(cache_dir)
    with _lock:
        import dspy

        # No disk cache: a provider can echo a key back in its answer, and DSPy would write it to disk
        # where we cannot mask it (the secrets test caught this). The folder is still ours, not $HOME.
        dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True, disk_cache_dir=str(cache_dir))
    return dspy


def make_lm(dspy, model: str, *, api_base: str | None, simulated: SimulatedEngine | None, role: str):
    """A ``dspy.LM`` for ``model``; ProviderError (exit 2) when it cannot be used."""
    if is_simulated(model):
        expected = SIM_ANALYST if role == "analyst" else SIM_PROPOSER
        if model != expected or simulated is None:
            raise ProviderError(
                f"--{role} {model}: the simulated {role} is {expected} (other sim/* names are code models)"
            )
        # Answers are computed from the planted truth each time: nothing worth caching.
        return dspy.LM(model, engine=simulated, cache=False)
    from tuner.models import ModelSpec, check_models

    try:
        spec = ModelSpec(model=model, api_base=api_base)
    except Exception as exc:  # noqa: BLE001 - pydantic or InputError: one line either way
        raise ProviderError(f"--{role} {model}: {str(exc).splitlines()[0]}") from None
    try:
        check_models([spec])
    except ProviderError as exc:
        raise ProviderError(f"--{role} {exc}") from None
    kwargs: dict[str, Any] = {"num_retries": 2}
    if api_base:
        kwargs["api_base"] = api_base
    try:
        return dspy.LM(model, **kwargs)
    except (ValueError, TypeError) as exc:
        raise ProviderError(f"--{role} {model}: {exc}") from None


_FIELD = re.compile(r"\[\[ ## (\w+) ## \]\]\n(.*?)(?=\n\n\[\[ ## |\n\nRespond with|\Z)", re.S)


class SimulatedEngine:
    """A DSPy engine answering from precomputed truth: ``answers[key]`` is the output fields for the
    input whose field ``key_field`` holds ``key``. It answers in the format the adapter asked for
    (DSPy's field markers, or JSON on the adapter's JSON retry)."""

    def __init__(self, model: str, key_field: str, answers: dict[str, dict[str, Any]]):
        self.model, self.key_field, self.answers = model, key_field, answers

    def complete(self, request):
        from dspy.lm15 import Message, Response, TextPart, Usage

        text = request.messages[-1].text or ""
        fields = {m.group(1): m.group(2).strip() for m in _FIELD.finditer(text)}
        answer = self.answers.get(fields.get(self.key_field, ""))
        if answer is None:
            out = "(simulated: no planted truth for this input)"
        elif "Respond with a JSON object" in text:
            out = json.dumps(answer)
        else:
            out = "\n\n".join(f"[[ ## {k} ## ]]\n{_plain(v)}" for k, v in answer.items()) + "\n\n[[ ## completed ## ]]"
        return Response(
            id=None,
            model=self.model,
            message=Message.assistant([TextPart(out)]),
            finish_reason="stop",
            usage=Usage(input_tokens=0, output_tokens=0, total_tokens=0),
        )

    def stream(self, request):
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self) -> None:
        pass


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
