"""Runs the benchmark scripts under ``benchmarks/`` and gathers one row per figure.

Each row calls a script's measuring function (the scripts stay runnable on their own and print
more detail). ``quick`` shrinks every measurement (fewer calls, the small Python suite, fewer
trials) so the whole table takes well under a minute; the full variant is what docs/benchmarks.md shows.
Caches and stores go to a temporary folder: every figure is measured cold unless it says otherwise.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel

__all__ = ["BenchRow", "ROWS", "run_benchmarks", "benchmarks_dir"]


class BenchRow(BaseModel):
    name: str
    value: str  # the headline figure, formatted
    target: str = ""
    ok: bool | None = None  # met the target (None: no target, or not measured)
    detail: str = ""
    seconds: float = 0.0  # how long measuring took
    figures: dict = {}


def benchmarks_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "benchmarks"


def _script(name: str):
    path = benchmarks_dir() / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"tuner_bench_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextmanager
def _env(**values: str):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _quiet(fn, *args, **kwargs):
    """Run a script's function without its own prints (the table says it all)."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args, **kwargs)


def _startup(quick: bool, tmp: Path) -> BenchRow:
    f = _quiet(_script("bench_startup").measure, 5 if quick else 11)
    return BenchRow(
        name="CLI start-up (tuner --help)",
        value=f"{f['median_s'] * 1000:.0f} ms median",
        target="≤ 300 ms",
        ok=f["median_s"] <= 0.3 and not f["heavy_imports"],
        detail=f"min {f['min_s'] * 1000:.0f} ms over {f['runs']} runs; heavy imports: {', '.join(f['heavy_imports']) or 'none'}",
        figures=f,
    )


def _overhead(quick: bool, tmp: Path) -> BenchRow:
    n = 100 if quick else 400
    f = _quiet(_script("bench_models").bench_overhead, n, 16)
    return BenchRow(
        name="overhead per model call beyond litellm",
        value=f"{f['overhead_ms']:.2f} ms",
        target="≤ 5 ms",
        ok=f["overhead_ms"] <= 5.0,
        detail=f"litellm alone {f['bare_ms']:.2f} ms, through tuner {f['harness_ms']:.2f} ms per call "
        f"({n} calls, 16 in flight, provider answers at once)",
        figures=f,
    )


def _cache(quick: bool, tmp: Path) -> BenchRow:
    n = 100 if quick else 400
    f = _quiet(_script("bench_models").bench_cache, n, 16)
    per = f["warm_s"] / n * 1000
    return BenchRow(
        name="response cache replay",
        value=f"{per:.2f} ms per answer",
        target="0 provider calls",
        ok=f["warm_provider_calls"] == 0,
        detail=f"{n} answers: cold {f['cold_s']:.2f} s ({f['cold_provider_calls']} calls), "
        f"warm {f['warm_s']:.2f} s ({f['warm_provider_calls']} calls)",
        figures=f,
    )


def _grading(quick: bool, tmp: Path) -> BenchRow:
    from tuner.evals import load_suite
    from tuner.paths import Project

    root = Path(__file__).resolve().parents[2]
    project, limit = (Project(root, root / "suites" / "python"), 4) if quick else (Project(root), 8)
    label = f"{load_suite(project).name} suite"
    f = _quiet(_script("bench_grading").measure, project, limit)
    n = f["evals"]
    ratio = f["single_s"] / f["batched_s"] if f["batched_s"] else 0.0
    return BenchRow(
        name=f"grading throughput ({label})",
        value=f"{f['batched_s'] / n:.2f} s/eval batched",
        target="batched faster",
        ok=ratio > 1.0,
        detail=f"{n} reference answers: batched {f['batched_s']:.1f} s, one by one {f['single_s']:.1f} s "
        f"({ratio:.1f}x); {f['passed_batched']}/{n} pass",
        figures=f,
    )


def _tuning(quick: bool, tmp: Path) -> BenchRow:
    from tuner.models import ModelSpec

    bt = _script("bench_tuning")
    root = Path(__file__).resolve().parents[2]
    with _env(TUNER_SUITE=str(root / "suites" / "python"), TUNER_SIM_LATENCY_MS="0"):
        h = bt.fresh_harness(tmp, "tune")
        try:
            spec = ModelSpec(model="sim/careful")
            pool = h.guidelines.load_set("all-active").select(h.guidelines.library)
            pool.update({rid: "default" for rid in h.guidelines.library.rules if rid not in pool})
            true = bt.truth(h, "careful", pool, ["text"])["text"]
            start = time.perf_counter()
            # Quick or not, what `tuner tune` does by default (at the library's cap): a quick run
            # of something else would measure what users do not run.
            found = _quiet(bt.tune_verdicts, h, spec, "text")
            seconds = time.perf_counter() - start
            calls = h.response_cache.misses  # answers the study had to buy
        finally:
            h.close()
    s = bt.score(found, true)
    fmt = lambda v: "n/a" if v is None else f"{v:.2f}"  # noqa: E731
    return BenchRow(
        name="tuning efficiency (simulator, Python suite)",
        value=f"recall {fmt(s['recall'])}, precision {fmt(s['precision'])}",
        detail=f"sim/careful, target text, tune's defaults: {calls} calls, {seconds:.0f} s; "
        f"found {', '.join(s['flagged']) or 'none'}; planted {', '.join(s['true']) or 'none'}",
        figures={**s, "calls": calls, "seconds": seconds},
    )


def _viewer(quick: bool, tmp: Path) -> BenchRow:
    if not (benchmarks_dir() / "bench_viewer.py").is_file():
        return BenchRow(
            name="viewer page time", value="not measured", detail="benchmarks/bench_viewer.py does not exist yet"
        )
    f = _quiet(_script("bench_viewer").measure, quick)
    return BenchRow(
        name="viewer page time",
        value=f"{f['median_ms']:.0f} ms median",
        figures=f,
        detail=f"{len(f.get('pages', {}))} pages over a store of {f.get('results')} results: "
        f"slowest {f.get('max_ms')} ms ({f.get('repeats')} requests each)",
    )


ROWS: dict[str, Callable[[bool, Path], BenchRow]] = {
    "startup": _startup,
    "overhead": _overhead,
    "cache": _cache,
    "grading": _grading,
    "tuning": _tuning,
    "viewer": _viewer,
}


def run_benchmarks(*, quick: bool = False, only: list[str] | None = None, progress=None) -> list[BenchRow]:
    """The rows named in ``only`` (default: all), in table order."""
    from tuner.errors import InputError

    unknown = sorted(set(only or []) - set(ROWS))
    if unknown:
        raise InputError(f"--only {unknown[0]!r}: unknown benchmark (known: {', '.join(ROWS)})")
    rows = []
    with tempfile.TemporaryDirectory(prefix="tuner-bench-") as tmp:
        with _env(TUNER_CACHE_DIR=str(Path(tmp) / "cache")):
            for name, measure in ROWS.items():
                if only and name not in only:
                    continue
                if progress:
                    progress(name)
                start = time.perf_counter()
                row = measure(quick, Path(tmp))
                rows.append(row.model_copy(update={"seconds": round(time.perf_counter() - start, 1)}))
    return rows
