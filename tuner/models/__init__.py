"""Models: panels, the litellm client, the response cache, the prompt and answer format.

Importing this package does not import litellm (seconds): the client imports it on first call.
"""

from tuner.models.answers import ParsedOutput, parse_files, read_answer
from tuner.models.cache import ResponseCache, cache_key
from tuner.models.client import Completion, CompletionRequest, complete_all, complete_many, scrub
from tuner.models.messages import build_messages, render_files, user_message
from tuner.models.panel import ModelSpec, check_models, load_panel

__all__ = [
    "ModelSpec",
    "load_panel",
    "check_models",
    "CompletionRequest",
    "Completion",
    "complete_many",
    "complete_all",
    "scrub",
    "ResponseCache",
    "cache_key",
    "user_message",
    "build_messages",
    "render_files",
    "ParsedOutput",
    "parse_files",
    "read_answer",
]
