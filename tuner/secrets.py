"""What counts as a credential in a model's parameters: exact key names, never substrings.

A substring test ("token" in the name) refused ``max_tokens``, the most common parameter of real
providers; keys are compared by exact name (case-insensitive) instead.
"""

from __future__ import annotations

__all__ = ["SECRET_PARAMS", "secret_params"]

SECRET_PARAMS = frozenset({
    "api_key", "apikey", "key", "token", "access_token", "api_token", "auth_token", "bearer_token",
    "secret", "secret_key", "client_secret", "password", "authorization",
    "aws_access_key_id", "aws_secret_access_key", "aws_session_token", "azure_ad_token", "vertex_credentials",
})


def secret_params(params: dict) -> list[str]:
    """The keys of ``params`` that name a credential, sorted."""
    return sorted(k for k in params if str(k).lower() in SECRET_PARAMS)
