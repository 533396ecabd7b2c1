"""The response cache: a model answer is bought once.

Key: hash of (model, params, api_base, messages hash, sample index) plus, for ``sim/*`` models, the
hash of the planted-truth data (editing ``gaps.yaml`` must not replay stale simulated answers), and
the tools offered when a request offers any (the structured answer format): a request without
tools keeps the key it always had.
Only ``ok`` completions are stored, so infrastructure failures are retried on the next run.
diskcache is process-safe, so parallel workers can share one cache directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tuner.hashing import sha256_json

if TYPE_CHECKING:
    from tuner.models.client import Completion
    from tuner.models.panel import ModelSpec
    from tuner.paths import Project

__all__ = ["ResponseCache", "cache_key"]

_SCHEMA = 1  # bump when the stored record changes shape


def cache_key(
    spec: ModelSpec,
    messages: list[dict],
    sample_index: int,
    extra: str | None = None,
    tools: list[dict] | tuple[dict, ...] | None = None,
) -> str:
    parts = {
        "v": _SCHEMA,
        "model": spec.model,
        "params": spec.params,
        "api_base": spec.api_base,
        "messages": sha256_json(messages),
        "sample_index": sample_index,
        "extra": extra,
    }
    if tools:
        parts["tools"] = sha256_json(list(tools))
    return sha256_json(parts)


class ResponseCache:
    """diskcache-backed store of ok completions, with hit/miss counters for this process."""

    def __init__(self, directory: str | Path):
        import diskcache  # ~30 ms; only when a cache is actually used

        self.directory = Path(directory)
        self._cache = diskcache.Cache(str(self.directory))
        self.hits = 0
        self.misses = 0

    @classmethod
    def for_project(cls, project: Project) -> ResponseCache:
        return cls(project.cache_dir / "responses")

    def get(self, key: str) -> dict[str, Any] | None:
        record = self._cache.get(key)
        if record is None:
            self.misses += 1
        else:
            self.hits += 1
        return record

    def put(self, key: str, completion: Completion) -> None:
        if completion.status != "ok":
            return
        record = completion.model_dump(exclude={"cached", "cache_key", "sample_index", "attempts"})
        self._cache.set(key, record)

    def __len__(self) -> int:
        return len(self._cache)

    def clear(self) -> None:
        self._cache.clear()

    def close(self) -> None:
        self._cache.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
