"""The grading cache: a result is a pure function of the output files, the eval's grader and the
grader identity (the kind's ``grader_id``: every input outside the eval that can change a
verdict), so it is stored under the hash of those."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from tuner.grading.models import GradeRequest, GradeResult
from tuner.hashing import sha256_json

if TYPE_CHECKING:
    from diskcache import Cache

__all__ = ["GradeCache", "cache_key", "graded_with_cache"]


def cache_key(request: GradeRequest, grader_id: str) -> str:
    return sha256_json(
        {
            "files": request.files,
            "symlinks": sorted(request.symlinks),
            "grader": request.eval.grader_hash,
            "grader_id": grader_id,
        }
    )


def graded_with_cache(
    requests: list[GradeRequest],
    grader_id: str,
    cache_dir: Path,
    grade_missing: Callable[[dict[str, GradeRequest]], Iterable[tuple[str, GradeResult]]],
    *,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> list[GradeResult]:
    """Results for ``requests``, in order. Cache hits are reused; the rest go to ``grade_missing``
    once per distinct output (identical samples share one grading), which yields ``(key, result)``
    as results come. Every result is cached except infrastructure failures."""
    keys = [cache_key(r, grader_id) for r in requests]
    per_key = Counter(keys)
    cache = GradeCache(cache_dir / "grading")
    try:
        found = {k: hit for k in per_key if use_cache and (hit := cache.get(k)) is not None}
        todo = {k: r for k, r in zip(keys, requests) if k not in found}
        done = len(requests) - sum(per_key[k] for k in todo)
        if progress:
            progress(done, len(requests))
        for key, result in grade_missing(todo) if todo else ():
            found[key] = result.model_copy(update={"cache_key": key})
            cache.put(found[key])
            done += per_key[key]
            if progress:
                progress(done, len(requests))
    finally:
        cache.close()
    return [found[k].model_copy(update={"eval_id": r.eval.id}) for k, r in zip(keys, requests)]


class GradeCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._cache: Cache | None = None

    def _open(self) -> Cache:
        if self._cache is None:
            from diskcache import Cache  # imported on first use: keeps `tuner --help` fast

            self.directory.mkdir(parents=True, exist_ok=True)
            self._cache = Cache(str(self.directory))
        return self._cache

    def get(self, key: str) -> GradeResult | None:
        raw = self._open().get(key)
        if raw is None:
            return None
        return GradeResult.model_validate_json(raw).model_copy(update={"cached": True, "cache_key": key})

    def put(self, result: GradeResult) -> None:
        # Infrastructure failures are not facts about the output: they are retried next time.
        if result.infra_error is None:
            self._open().set(result.cache_key, result.model_dump_json())

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
