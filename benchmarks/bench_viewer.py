"""How fast the viewer's pages and the export API answer on a store with 100,000 results.

Builds a realistic SQLite store (the real suite's evals, 99 now; each result holds a full answer, its
parsed files, the exact user message and 3-6 grading steps; 5 models; a tenth of the runs are
re-grades sharing their generations; 3,000 reviewed sessions) with one bulk transaction, serves it
with `tuner serve --port 0` (a separate process, on 127.0.0.1), and times each page and the export API (median
of several requests after one warm-up, over a keep-alive HTTP connection).

Run:   .venv/bin/python benchmarks/bench_viewer.py [--quick] [--store PATH]
       (--quick: 10,000 results; --store keeps the built store at PATH and reuses it next time)
API:   measure(quick=False) -> {"median_ms": ..., "max_ms": ..., "pages": {name: median ms}, ...}
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

MODELS = ("sim/careful", "sim/overeager", "sim/expert", "openai/gpt-bench", "anthropic/claude-bench")
SAMPLES = 10
STEPS = ("filesystem", "codegen", "bundle", "tsc", "eslint", "tests")


def _hash(*parts) -> str:
    import hashlib

    return "sha256:" + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()


def _iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")


def build_store(path: Path, results: int, seed: int = 7) -> dict:
    """Write a store of about ``results`` results at ``path``; returns what it holds."""
    from tuner.evals import load_suite
    from tuner.models.messages import render_files
    from tuner.paths import Project
    from tuner.store import Store

    suite = load_suite(Project(REPO))
    evals = [(e.id, e.category, e.task, e.answer_files()) for e in suite.evals]
    rendered = {eid: render_files(files) for eid, _, _, files in evals}
    Store.open(f"sqlite:///{path}").close()  # the schema, exactly as tuner creates it
    rng = random.Random(seed)
    n_runs = max(1, round(results / (len(evals) * SAMPLES)))
    prompt = _hash("bench-prompt")
    start = datetime(2026, 1, 1)
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous=OFF")
    with db:
        db.execute(
            "INSERT INTO prompts (hash, set_name, template, rules, tokens, text) VALUES (?,?,?,?,?,?)",
            (
                prompt,
                "all-active",
                "default",
                "[]",
                4200,
                "# Convex guidelines\n\n" + "Use the new function syntax.\n" * 400,
            ),
        )
        result_id = step_id = 0
        keys_of_previous: list[str] = []
        for r in range(n_runs):
            model = MODELS[r % len(MODELS)]
            regrade = r % 10 == 9 and keys_of_previous  # same generations as the run before, new grader
            run_id = _hash("run", r)
            t = start + timedelta(hours=r)
            counts: dict[str, dict] = {}
            rows, steps, keys = [], [], []
            for i, (eid, cat, task, files) in enumerate(evals):
                for s in range(SAMPLES):
                    result_id += 1
                    roll = rng.random()
                    outcome = "pass" if roll < 0.7 else "fail" if roll < 0.98 else "infra"
                    key = keys_of_previous[i * SAMPLES + s] if regrade else _hash("gen", r, eid, s)
                    keys.append(key)
                    c = counts.setdefault(cat, {"pass": 0, "fail": 0, "infra": 0})
                    c[outcome] += 1
                    failed = rng.choice(STEPS[3:]) if outcome == "fail" else None
                    rows.append(
                        (
                            result_id,
                            run_id,
                            eid,
                            cat,
                            s,
                            outcome,
                            failed,
                            rendered[eid],
                            json.dumps(files),
                            "provider 503" if outcome == "infra" else None,
                            8 if outcome == "pass" else 5,
                            8,
                            2200 + rng.randrange(400),
                            600 + rng.randrange(300),
                            None,
                            rng.random() * 3,
                            key,
                            _hash("grade", r, eid, s),
                            _iso(t),
                            json.dumps([{"role": "system", "prompt_hash": prompt}, {"role": "user", "content": task}]),
                            model,
                            "stop",
                            1,
                        )
                    )
                    for p, name in enumerate(STEPS[: rng.randint(3, 6)]):
                        step_id += 1
                        status = "fail" if name == failed else "pass"
                        steps.append(
                            (
                                step_id,
                                result_id,
                                p,
                                name,
                                status,
                                rng.random(),
                                "convex/x.ts(3,1): error TS2304: Cannot find name 'v'." if status == "fail" else None,
                                None,
                            )
                        )
            db.executemany(
                "INSERT INTO results (id, run_id, eval_id, category, sample_index, outcome, failed_step, output, "
                "files, error, tests_passed, tests_total, prompt_tokens, completion_tokens, cost_usd, latency_s, "
                "response_key, grade_key, created_at, messages, response_model, finish_reason, attempts) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                rows,
            )
            db.executemany(
                "INSERT INTO steps (id, result_id, position, name, status, duration_s, detail, warnings) "
                "VALUES (?,?,?,?,?,?,?,?)",
                steps,
            )
            summary = {
                "categories": {
                    k: {**v, "pass_rate": v["pass"] / max(1, v["pass"] + v["fail"]), "lo": 0.0, "hi": 1.0}
                    for k, v in counts.items()
                }
            }
            tot = {o: sum(v[o] for v in counts.values()) for o in ("pass", "fail", "infra")}
            summary["overall"] = {**tot, "pass_rate": tot["pass"] / (tot["pass"] + tot["fail"]), "lo": 0.0, "hi": 1.0}
            summary["calls"] = {"provider_calls": len(rows), "response_cache_hits": 0, "kept": 0}
            db.execute(
                "INSERT INTO runs (id, experiment_id, prompt_hash, set_name, model, model_key, params, suite, "
                "suite_hash, grader_hash, eval_ids, samples, sample_offset, git_rev, status, summary, created_at, "
                "updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    run_id,
                    None,
                    prompt,
                    "all-active",
                    model,
                    _hash("model", model),
                    "{}",
                    suite.name,
                    suite.hash,
                    _hash("grader", r // 10),
                    json.dumps([e[0] for e in evals]),
                    SAMPLES,
                    0,
                    None,
                    "complete",
                    json.dumps(summary),
                    _iso(t),
                    _iso(t),
                ),
            )
            keys_of_previous = keys
        tags = ("regression", "auth", "golden-set", "flaky")
        chosen = rng.sample(range(1, result_id + 1), min(3000, result_id))
        labelled = db.execute(
            f"SELECT DISTINCT response_key FROM results WHERE id IN ({','.join(map(str, chosen))})"
        ).fetchall()
        db.executemany(
            "INSERT INTO session_labels (session_key, eval_ready, eval_status, eval_notes, eval_tags, "
            "expected_output, reviewed_at) VALUES (?,?,?,?,?,?,?)",
            [
                (
                    k,
                    1,
                    rng.choice(("golden", "correct", "incorrect")),
                    "",
                    json.dumps(sorted(rng.sample(tags, 2))),
                    None,
                    _iso(start),
                )
                for (k,) in labelled
            ],
        )
    db.execute("ANALYZE")
    db.close()
    _add_experiments(path, n_runs, [c for c in dict.fromkeys(e[1] for e in evals)], rng)
    return {"results": result_id, "runs": n_runs, "labelled": len(labelled), "bytes": path.stat().st_size}


def _add_experiments(path: Path, n_runs: int, categories: list[str], rng) -> None:
    """A compare (two runs), a tune (its trials linked as parts) and an ablation of every project rule
    (effects per rule x category for two models), as the commands record them."""
    from tuner.guidelines import load_guidelines
    from tuner.paths import Project
    from tuner.store import Store

    rules = [r.id for r in load_guidelines(Project(REPO)).library][:40]
    store = Store.open(f"sqlite:///{path}")
    try:
        runs = [_hash("run", r) for r in range(n_runs)]
        store.start_experiment(
            _hash("exp", "compare"), "bench-compare", "compare", {"before": "none", "after": "all-active"}
        )
        store.link_runs(_hash("exp", "compare"), runs[:1], "before")
        store.link_runs(_hash("exp", "compare"), runs[5:6], "after")  # the same model (5 models in turn)
        store.finish_experiment(_hash("exp", "compare"), "finished", {"cells": []})
        store.start_experiment(_hash("exp", "tune"), "bench-tune", "tune", {"category": categories[0]})
        store.link_runs(_hash("exp", "tune"), runs[10:40], "trial")
        effects = [
            {
                "rule": rid,
                "model": m,
                "category": c,
                "delta": d,
                "lo": d - 0.2,
                "hi": d + 0.2,
                "p_value": 0.5,
                "q_value": 0.5,
                "verdict": "no detectable effect",
                "tokens": 40,
            }
            for rid in rules
            for m in MODELS[:2]
            for c in categories
            for d in [round(rng.uniform(-0.4, 0.4), 2)]
        ]
        store.start_experiment(_hash("exp", "ablate"), "bench-ablate", "ablate", {"design": "loo", "set": "all-active"})
        store.link_runs(_hash("exp", "ablate"), runs[40:], "design")
        store.finish_experiment(_hash("exp", "ablate"), "finished", {"design": "loo", "effects": effects})
    finally:
        store.close()


def _serve(url: str):
    """`tuner serve --port 0` on the store, as a user starts it; returns (process, login URL)."""
    import os
    import re
    import subprocess

    env = {**os.environ, "TUNER_HOME": str(REPO), "TUNER_DB": url}
    env.pop("TUNER_SUITE", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tuner.cli.main", "serve", "--port", "0"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    for line in proc.stdout:
        m = re.search(r"http://127\.0\.0\.1:\d+/login\?token=\S+", line)
        if m:
            return proc, m.group(0)
    raise RuntimeError("tuner serve printed no login URL")


def _time(client, path: str, repeats: int, headers: dict | None = None) -> dict:
    first = client.get(path, headers=headers)
    assert first.status_code == 200, (path, first.status_code, first.text[:300])
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        r = client.get(path, headers=headers)
        times.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200
    return {"median_ms": statistics.median(times), "max_ms": max(times), "bytes": len(first.content)}


def measure(quick: bool = False, store_path: Path | None = None) -> dict:
    """Build (or reuse) the store, serve it, time every page; the figures as a dict."""
    import httpx

    from tuner.apikeys import create_key
    from tuner.store import Store

    target = 10_000 if quick else 100_000
    repeats = 3 if quick else 7
    tmp = None
    if store_path is None:
        tmp = tempfile.TemporaryDirectory(prefix="bench-viewer-")
        store_path = Path(tmp.name) / "tuner.db"
    info_file = store_path.with_suffix(".json")
    t0 = time.perf_counter()
    if store_path.is_file() and info_file.is_file() and json.loads(info_file.read_text())["target"] == target:
        info = json.loads(info_file.read_text())
        built_s = None
    else:
        store_path.unlink(missing_ok=True)
        info = {**build_store(store_path, target), "target": target}
        info_file.write_text(json.dumps(info))
        built_s = time.perf_counter() - t0
    url = f"sqlite:///{store_path}"
    s = Store.open(url)
    key = create_key(s, "bench").secret
    runs = s.runs(limit=3)
    s.close()
    run = runs[1]
    ev = run.eval_ids[40]
    category = ev.split("/")[0].split("-", 1)[1]
    proc, login = _serve(url)
    base = login.split("/login")[0]
    pages = {
        "runs list": "/runs",
        "run": f"/runs/{run.id}",
        "category": f"/runs/{run.id}/categories/{category}",
        "eval (10 samples, diffs)": f"/runs/{run.id}/evals/{ev}",
        "leaderboard": "/leaderboard",
        "reports": "/reports",
        "evals tab (eval-ready)": "/evals",
        "evals tab (all sessions)": "/evals?ready=all",
        "evals tab (page 100)": "/evals?ready=all&offset=4950",
        "evals tab (model+category)": f"/evals?ready=all&model={run.model}&category={category}",
        "evals tab (status+tag)": "/evals?status=golden&tag=auth",
        "session": None,
        "experiments home": "/",
        "experiments (kind+model filter)": f"/?kind=compare&model={run.model}",
        "experiment (ablation heatmaps)": f"/experiments/{_hash('exp', 'ablate')}",
        "experiment (tune, 30 runs)": f"/experiments/{_hash('exp', 'tune')}",
        "side by side (2 x 960 results)": f"/compare/{_hash('run', 0)}/{_hash('run', 5)}",
        "rules": "/rules",
        "rule effects (rules x categories)": "/effects",
        "compare: pick two runs": "/compare",
        "rule (effects forest)": None,
    }
    figures: dict[str, dict] = {}
    try:
        # TCP_NODELAY as browsers set it: without it a reused connection waits ~40 ms for a delayed ACK.
        transport = httpx.HTTPTransport(socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
        with httpx.Client(base_url=base, timeout=120, transport=transport) as client:
            assert client.get(login).status_code == 303
            first_key = client.get("/api/sessions?limit=1", headers={"Authorization": f"Bearer {key}"}).json()[
                "sessions"
            ][0]["key"]
            pages["session"] = f"/sessions/{first_key}"
            from tuner.guidelines import load_guidelines
            from tuner.paths import Project

            pages["rule (effects forest)"] = "/rule/" + next(iter(load_guidelines(Project(REPO)).library)).id
            for name, path in pages.items():
                figures[name] = _time(client, path, repeats)
            client.cookies.clear()
            auth = {"Authorization": f"Bearer {key}"}
            for name, path in {
                "api sessions (50)": "/api/sessions?limit=50",
                "api export openai (100)": "/api/export?format=openai&limit=100",
                "api export deepeval (golden+tag)": "/api/export?format=deepeval&status=golden&tag=auth",
                "api export text (1000)": "/api/export?format=text&limit=1000",
            }.items():
                figures[name] = _time(client, path, repeats, auth)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if tmp is not None:
            tmp.cleanup()
    medians = [f["median_ms"] for f in figures.values()]
    return {
        "results": info["results"],
        "runs": info["runs"],
        "labelled": info["labelled"],
        "store_mb": round(info["bytes"] / 1e6),
        "build_s": None if built_s is None else round(built_s, 1),
        "repeats": repeats,
        "median_ms": round(statistics.median(medians), 1),
        "max_ms": round(max(medians), 1),
        "pages": {k: round(v["median_ms"], 1) for k, v in figures.items()},
        "bytes": {k: v["bytes"] for k, v in figures.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 results, 3 timed requests per page")
    parser.add_argument("--store", type=Path, help="build the store here and reuse it on later runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = measure(args.quick, args.store)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    built = f", built in {out['build_s']} s" if out["build_s"] is not None else " (reused)"
    print(
        f"store: {out['results']:,} results in {out['runs']} runs, {out['labelled']:,} reviewed sessions, "
        f"{out['store_mb']} MB{built}"
    )
    print(f"{'page / endpoint':38} {'median ms':>10} {'KB':>8}   (median of {out['repeats']} after a warm-up)")
    for name, ms in out["pages"].items():
        print(f"{name:38} {ms:>10.1f} {out['bytes'][name] / 1000:>8.1f}")
    print(f"median over pages {out['median_ms']} ms, slowest {out['max_ms']} ms")


if __name__ == "__main__":
    main()
