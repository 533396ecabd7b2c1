"""Benchmarks of the model client (prints figures; no assertions).

1. Throughput: sim latency 200 ms, concurrency 16, 400 calls; wall time vs the ideal 400/16 x 0.2 s.
2. Harness overhead per call at zero latency: complete_many vs bare litellm.acompletion, both with
   litellm's ``mock_response`` (so the provider costs nothing and only the layers differ); also
   the sim/* path at zero latency (adds the simulator's own work).
3. Warm cache: the same 400 requests again make zero provider calls.

Run: .venv/bin/python benchmarks/bench_models.py [--calls 400] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path


def _requests(spec, n: int):
    from tuner.models import CompletionRequest
    from tuner.models.sim.suite import load_suite
    from tuner.models.sim.world import default_suite_root

    suite = load_suite(default_suite_root())
    return [
        CompletionRequest.chat(spec, "", suite[i % len(suite)].task, sample_index=i // len(suite)) for i in range(n)
    ]


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bench_throughput(n: int, conc: int) -> None:
    from tuner.models import ModelSpec, complete_all

    os.environ["TUNER_SIM_LATENCY_MS"] = "200"
    reqs = _requests(ModelSpec(model="sim/careful", concurrency=conc), n)
    cpu0 = time.process_time()
    wall, out = _timed(lambda: complete_all(reqs, cache=None))
    cpu = time.process_time() - cpu0
    ideal = n / conc * 0.2
    ok = sum(c.status == "ok" for c in out)
    print(
        f"[throughput] {n} calls, concurrency {conc}, 200 ms each: wall {wall:.2f}s, ideal {ideal:.2f}s, "
        f"ratio {wall / ideal:.3f} (target <= 1.2); ok {ok}/{n}; process CPU {cpu:.2f}s; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )


async def _bare_litellm(n: int, conc: int) -> float:
    from tuner.models.runtime import litellm_module

    litellm = litellm_module()
    gate = asyncio.Semaphore(conc)

    async def one(i: int) -> None:
        async with gate:
            await litellm.acompletion(
                model="openai/bench",
                messages=[{"role": "user", "content": f"t{i}"}],
                mock_response="# Files\n",
                max_retries=0,
            )

    start = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    return time.perf_counter() - start


def bench_overhead(n: int, conc: int) -> dict:
    from tuner.models import ModelSpec, complete_all

    os.environ["TUNER_SIM_LATENCY_MS"] = "0"
    asyncio.run(_bare_litellm(50, conc))  # warm up litellm's lazy imports
    mock = ModelSpec(model="openai/bench", params={"mock_response": "# Files\n"}, concurrency=conc)
    complete_all(_requests(mock, 50), cache=None)
    bare = min(asyncio.run(_bare_litellm(n, conc)) for _ in range(3))
    harness = min(_timed(lambda: complete_all(_requests(mock, n), cache=None))[0] for _ in range(3))
    sim_spec = ModelSpec(model="sim/careful", concurrency=conc)
    sim = min(_timed(lambda: complete_all(_requests(sim_spec, n), cache=None))[0] for _ in range(3))
    per = lambda t: t / n * 1000  # noqa: E731
    print(
        f"[overhead] per call: bare litellm (mock_response) {per(bare):.2f} ms; complete_many (mock_response) "
        f"{per(harness):.2f} ms -> harness overhead {per(harness - bare):.2f} ms (target <= 5 ms); "
        f"sim/careful at 0 ms {per(sim):.2f} ms (+{per(sim - bare):.2f} ms incl. the simulator's own work)"
    )
    return {
        "bare_ms": per(bare),
        "harness_ms": per(harness),
        "overhead_ms": per(harness - bare),
        "sim_ms": per(sim),
        "calls": n,
    }


def bench_cache(n: int, conc: int) -> dict:
    from tuner.models import ModelSpec, ResponseCache, complete_all
    from tuner.models.sim.provider import SimProvider

    os.environ["TUNER_SIM_LATENCY_MS"] = "0"
    calls = {"n": 0}
    original = SimProvider._respond

    def counting(self, *a, **k):
        calls["n"] += 1
        return original(self, *a, **k)

    SimProvider._respond = counting
    with tempfile.TemporaryDirectory() as tmp:
        cache = ResponseCache(Path(tmp) / "responses")
        reqs = _requests(ModelSpec(model="sim/careful", concurrency=conc), n)
        cold, _ = _timed(lambda: complete_all(reqs, cache=cache))
        cold_calls = calls["n"]
        warm, out = _timed(lambda: complete_all(reqs, cache=cache))
        print(
            f"[cache] cold: {cold_calls} provider calls in {cold:.2f}s; warm: {calls['n'] - cold_calls} provider "
            f"calls in {warm:.2f}s ({sum(c.cached for c in out)}/{n} cached; hits {cache.hits}, misses {cache.misses})"
        )
        cache.close()
        figures = {
            "calls": n,
            "cold_s": cold,
            "warm_s": warm,
            "cold_provider_calls": cold_calls,
            "warm_provider_calls": calls["n"] - cold_calls,
            "cached": sum(c.cached for c in out),
        }
    SimProvider._respond = original
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    from tuner.models.runtime import litellm_module

    t, _ = _timed(litellm_module)
    print(
        f"[setup] litellm import + sim registration: {t:.2f}s (once per process; `import tuner.models` does not pay it)"
    )
    bench_throughput(args.calls, args.concurrency)
    bench_overhead(args.calls, args.concurrency)
    bench_cache(args.calls, args.concurrency)


if __name__ == "__main__":
    main()
