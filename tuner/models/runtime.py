"""The one place litellm is imported and configured.

Importing litellm costs seconds, so nothing imports it at module level: code that is about to call
a model asks ``litellm_module()``. The first call sets the offline environment (bundled price map,
bundled tokenizers), imports litellm, quiets it and registers the ``sim`` custom provider, so
simulated and real models go through the very same ``litellm.acompletion`` path.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import Any

__all__ = ["litellm_module", "prepare_environment"]

_lock = threading.Lock()
_module: Any = None


def prepare_environment() -> None:
    """Environment litellm reads at import time; setdefault so a user's choice wins."""
    # Without this, the import tries to fetch a price map over the network for ~10 s offline.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # tiktoken would otherwise try to download encodings; litellm ships them.
    spec = importlib.util.find_spec("litellm")
    if spec is not None and spec.origin:
        tokenizers = Path(spec.origin).parent / "litellm_core_utils" / "tokenizers"
        if tokenizers.is_dir():
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(tokenizers))


def litellm_module() -> Any:
    """Import, configure and return litellm (once per process)."""
    global _module
    if _module is not None:
        return _module
    with _lock:
        if _module is None:
            prepare_environment()
            import litellm

            litellm.suppress_debug_info = True
            litellm.telemetry = False
            # Never let a failure callback or logger print request payloads (which hold prompts).
            litellm.set_verbose = False
            from tuner.models.sim.provider import register

            register(litellm)
            _module = litellm
    return _module
