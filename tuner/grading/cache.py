"""The grading cache: a result is a pure function of the output files, the grader, the locked
toolchain and this pipeline's version, so it is stored under the hash of those."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tuner.grading.models import GradeResult, GradeRequest
from tuner.hashing import sha256_json

if TYPE_CHECKING:
    from diskcache import Cache

__all__ = ["GradeCache", "cache_key", "PIPELINE_VERSION"]

# Bump when a change to the pipeline can change a result (rule levels, tsconfig, step logic).
PIPELINE_VERSION = "1"


def cache_key(request: GradeRequest, lock_hash: str) -> str:
    return sha256_json({
        "files": request.files,
        "symlinks": sorted(request.symlinks),
        "grader": request.eval.grader_hash,
        "toolchain": lock_hash,
        "pipeline": PIPELINE_VERSION,
    })


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
