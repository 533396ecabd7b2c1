"""How a provider's failure is read: retry it, fail this request, or stop calling the model (fatal),
and the one-line, scrubbed reason a result records. ``client`` retries and accounts by these answers.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import TYPE_CHECKING, Any, Literal

from tuner.secrets import scrub

if TYPE_CHECKING:
    from tuner.models.panel import ModelSpec

__all__ = ["Transient", "Permanent", "Reported", "retry_after", "classify", "describe"]

_LITELLM_PREFIX = re.compile(r"^(?:litellm\.\w+:\s*)?(?:\w+Error:\s*)?")


class Transient(Exception):
    """A reply we could not use but may get right on another try (empty or malformed body)."""


class Permanent(Exception):
    """A reply that will not get better by asking again (e.g. empty because max_tokens ran out)."""


class Reported(Exception):
    """A failure read where it happened (a cluster worker, ``tuner.runs.remote``) and carried back
    as data: how to treat it (``classify``'s answer), its one scrubbed line, the Retry-After."""

    def __init__(self, kind: Literal["retry", "fail", "fatal"], message: str, after: float | None = None):
        super().__init__(message)
        self.kind, self.message, self.after = kind, message, after


def retry_after(exc: BaseException) -> float | None:
    """Seconds from a provider's Retry-After / retry-after-ms header, if it sent one."""
    if isinstance(exc, Reported):
        return exc.after
    headers: Any = None
    for source in (getattr(exc, "response", None), exc):
        headers = getattr(source, "headers", None) or getattr(source, "litellm_response_headers", None)
        if headers:
            break
    if not headers:
        return None
    try:
        if headers.get("retry-after-ms") is not None:
            return float(headers["retry-after-ms"]) / 1000.0
        value = headers.get("retry-after")
        if value is None:
            return None
        return float(value)
    except (TypeError, ValueError):
        return _http_date_delay(headers.get("retry-after"))


def _http_date_delay(value: Any) -> float | None:
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _status(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    return code if isinstance(code, int) else None


def classify(exc: BaseException) -> Literal["retry", "fail", "fatal"]:
    """retry: transient. fail: this request is wrong. fatal: every request to this model will fail."""
    if isinstance(exc, (asyncio.TimeoutError, Transient)):
        return "retry"
    if isinstance(exc, Permanent):
        return "fail"
    if isinstance(exc, Reported):
        return exc.kind
    name = type(exc).__name__
    if _missing_credentials(exc):
        return "fatal"  # no key at all: every call to this model fails the same way
    if name in (
        "AuthenticationError",
        "PermissionDeniedError",
        "NotFoundError",
        "PaymentRequiredError",
        "UnsupportedParamsError",
        "LiteLLMUnknownProvider",
    ):
        return "fatal"
    if name in (
        "RateLimitError",
        "Timeout",
        "APIConnectionError",
        "InternalServerError",
        "ServiceUnavailableError",
        "BadGatewayError",
        "APIResponseValidationError",
    ):
        return "retry"
    code = _status(exc)
    if code is None and not type(exc).__module__.startswith(("litellm", "openai", "httpx", "aiohttp")):
        return "fail"  # a bug on our side or in a library: asking again will not help
    if code is None or code in (408, 409, 425, 429) or code >= 500:
        return "retry"  # provider failures without a 4xx verdict are treated as transient
    return "fail"


def describe(exc: BaseException, spec: ModelSpec, litellm: Any) -> str:
    if isinstance(exc, Reported):
        return exc.message
    if isinstance(exc, asyncio.TimeoutError):
        return f"timeout after {spec.timeout_s:g}s"
    name = type(exc).__name__
    if name == "AuthenticationError" or _missing_credentials(exc):
        missing = _missing_keys(spec, litellm)
        hint = (
            f"set {', '.join(missing)} in the environment"
            if missing
            else f"check {spec.provider.upper()}_API_KEY (or the key variable of this provider) in the environment"
        )
        if name != "AuthenticationError":
            return f"{spec.model}: no API key: {hint}"
        return f"{spec.model}: authentication failed (401): {hint}"
    if _unreachable(exc):
        # litellm reports a refused connection as a 500 from the provider; nothing answered at all.
        where = spec.api_base or f"the {spec.provider} API"
        return scrub(f"APIConnectionError: cannot reach {where} (connection failed; is the provider up?)")
    code = _status(exc)
    message = getattr(exc, "message", None) or str(exc) or name
    message = _LITELLM_PREFIX.sub("", str(message))  # "litellm.X: X: " repeats the class name
    prefix = f"{name} ({code})" if code else name
    return scrub(f"{prefix}: {message}")


def _missing_credentials(exc: BaseException) -> bool:
    """The SDK refused to send anything: no API key in the environment (litellm wraps it as a 500)."""
    text = str(getattr(exc, "message", "") or exc)
    return "Missing credentials" in text or "api_key client option must be set" in text


def _unreachable(exc: BaseException) -> bool:
    """Did the request never reach a server (refused, unresolvable, dropped before any reply)?"""
    seen: BaseException | None = exc
    for _ in range(6):
        if seen is None:
            break
        if type(seen).__name__ in ("APIConnectionError", "ConnectError", "ConnectionRefusedError"):
            return _status(seen) in (None, 500)
        seen = seen.__cause__ or seen.__context__
    return "Connection error" in str(getattr(exc, "message", "") or exc) and _status(exc) in (None, 500)


def _missing_keys(spec: ModelSpec, litellm: Any) -> list[str]:
    try:
        return list(litellm.validate_environment(model=spec.model).get("missing_keys") or [])
    except Exception:  # only a hint for the message
        return []
