"""Credentials: the one place that says what a secret looks like, and the one scrubber.

Two different questions, two answers:

- **A model parameter that is a credential** (``secret_params``): exact key names, never
  substrings. A substring test ("token" in the name) refused ``max_tokens``, the most common
  parameter of real providers.
- **A secret inside text** (``mask``, ``scrub``, ``mask_tree``): the value of every environment
  variable whose *name contains* KEY, TOKEN, SECRET, PASSWORD, PASSWD or CREDENTIAL (anywhere in
  the name: ``AWS_SECRET_ACCESS_KEY``, ``HF_TOKEN_PATH``...; values shorter than 8 characters are
  left alone, they are flags and sizes, not keys), and strings shaped like the keys providers issue
  (``sk-``, ``AKIA``, ``AIza``, ``ghp_``, ``hf_``, ``xox?-``, a bearer token, ``api_key=...``, this
  tool's own ``tk_`` export keys). Provider errors, analyst and proposer answers, reports and every
  CLI error line go through here before anyone sees them.
"""

from __future__ import annotations

import os
import re

__all__ = ["SECRET_PARAMS", "secret_params", "is_secret_name", "secret_values", "mask", "mask_tree", "scrub"]

SECRET_PARAMS = frozenset(
    {
        "api_key",
        "apikey",
        "key",
        "token",
        "access_token",
        "api_token",
        "auth_token",
        "bearer_token",
        "secret",
        "secret_key",
        "client_secret",
        "password",
        "authorization",
        "aws_access_key_id",
        "aws_secret_access_key",
        "aws_session_token",
        "azure_ad_token",
        "vertex_credentials",
    }
)

_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_MIN_SECRET = 8
_MASK = "***"
# Key shapes providers issue; each keeps a recognisable prefix so a reader knows what was there.
_SHAPES = [
    (re.compile(r"sk-[A-Za-z0-9_\-]{6,}"), "sk-***"),
    (re.compile(r"(?i)bearer\s+[A-Za-z0-9_\-.=:/+~]{6,}"), "Bearer ***"),
    (
        re.compile(
            r"(?i)((?:api[_-]?key|x-api-key|authorization|access[_-]?token|secret|password)[\"']?\s*[:=]\s*[\"']?)"
            r"(?!\*\*\*)[^\s\"',}]{4,}"
        ),
        r"\1***",
    ),
    (re.compile(r"AIza[0-9A-Za-z_\-]{20,}"), "AIza***"),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), "AKIA***"),
    (re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b|\bgithub_pat_[A-Za-z0-9_]{20,}"), "gh***"),
    (re.compile(r"\bhf_[A-Za-z0-9]{20,}\b"), "hf_***"),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), "xox***"),
    (re.compile(r"\btk_[0-9a-f]{12}_[A-Za-z0-9_-]{20,}"), "tk_***"),
]


def secret_params(params: dict) -> list[str]:
    """The keys of ``params`` that name a credential, sorted."""
    return sorted(k for k in params if str(k).lower() in SECRET_PARAMS)


def is_secret_name(name: str) -> bool:
    """Whether an environment variable's name says it holds a credential."""
    return bool(_SECRET_NAME.search(name))


def secret_values(environ=None) -> list[str]:
    """Values of credential-named environment variables, longest first (so a key that contains
    another is masked whole)."""
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if is_secret_name(k) and len(v) >= _MIN_SECRET}
    return sorted(values, key=len, reverse=True)


def mask(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with every secret value and key-shaped string masked; its layout kept."""
    text = str(text)
    for value in secret_values() if secrets is None else secrets:
        text = text.replace(value, _MASK)
    for pattern, repl in _SHAPES:
        text = pattern.sub(repl, text)
    return text


def mask_tree(value, secrets: list[str] | None = None):
    """``mask`` applied to every string value inside a JSON-like value."""
    secrets = secret_values() if secrets is None else secrets
    if isinstance(value, str):
        return mask(value, secrets)
    if isinstance(value, list | tuple):
        return [mask_tree(v, secrets) for v in value]
    if isinstance(value, dict):
        return {k: mask_tree(v, secrets) for k, v in value.items()}
    return value


def scrub(text: str, limit: int = 400) -> str:
    """One line, no secrets, at most ``limit`` characters: for errors shown to a person. Masked
    before it is cut, so a cut never leaves half a key behind."""
    return mask(" ".join(str(text).split()))[:limit]
