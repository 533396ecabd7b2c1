"""A published version is an experiment on the home page (issue 33): its answer is the publish gate
(status and cells, as the manifest recorded them), and the gate's runs are its parts, never plain
runs of their own."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


def _estimate(rate: float) -> dict:
    return {"rate": rate, "lo": rate - 0.2, "hi": min(1.0, rate + 0.2), "passes": 3, "n": 6, "tasks": 2, "method": "cp"}


def test_a_published_version_leads_with_its_gate_and_owns_its_gate_runs(project_dir, tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from tuner.guidelines import load_guidelines
    from tuner.paths import Project, find_project
    from tuner.store import ResultRecord, RunSpec, Store
    from tuner.web import Login, create_app

    monkeypatch.chdir(project_dir)
    store = Store.open(f"sqlite:///{tmp_path / 'tuner.db'}")
    g = load_guidelines(Project(project_dir))
    prompt = g.compose(g.load_set("all-active"))
    store.save_prompt(prompt)
    gate_run = store.start_run(
        RunSpec(
            prompt_hash=prompt.hash,
            set_name="convex_rules-candidate",
            model="sim/careful",
            model_key="sha256:m",
            params={},
            suite="convex",
            suite_hash="sha256:s",
            grader_hash="sha256:g",
            eval_ids=["005-actions/001-a"],
            samples=2,
        )
    )
    store.record_results(
        gate_run.id,
        [
            ResultRecord(
                eval_id="005-actions/001-a",
                category="actions",
                sample_index=i,
                outcome="pass",
                attempts=1,
                prompt_tokens=100,
                completion_tokens=10,
            )
            for i in range(2)
        ],
    )
    store.finish_run(gate_run.id, "complete", {})
    row = {
        "model": "sim/careful (simulator)",
        "category": "actions",
        "before": _estimate(0.5),
        "after": _estimate(0.4),
        "paired": {"delta": -0.1, "lo": -0.3, "hi": 0.1, "pairs": 6},
        "infra": 0,
        "gate": "not enough evidence",
    }
    manifest = {
        "name": "convex_rules",
        "version": "1.0.0",
        "previous": None,
        "published_at": "2026-11-27",
        "source": {"kind": "study", "name": "tune-actions-1"},
        "prompt_hash": "sha256:p",
        "tokens": 900,
        "rules": [{"id": "actions.use-node-directive", "variant": "default", "hash": "sha256:r", "title": "t"}],
        "evidence": [],
        "run_ids": [gate_run.id],
        "gate": {
            "evals": ["005-actions/001-a"],
            "against": "the study's baseline",
            "models": ["sim/careful"],
            "samples": 2,
            "margin": 0.15,
            "status": "not enough evidence",
            "rows": [row],
            "passed": False,
            "forced": False,
            "accepted_by_tune": True,
        },
    }
    folder = project_dir / "guidelines" / "published" / "convex_rules"
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with TestClient(create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1") as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        home = c.get("/").text
        page = c.get("/published/convex_rules/1.0.0").text
        assert c.get("/published/convex_rules/9.9.9").status_code == 404
    store.close()
    rows = home[home.index('<table id="experiments">') : home.index("</table>")]
    assert 'data-kind="publish"' in rows and "gate: not enough evidence" in rows
    assert 'data-kind="run"' not in rows  # the gate's run is the publish's part
    assert '<td class="num calls">2</td>' in rows
    assert page.index('id="gate-status"') < page.index('id="gate-cells"') < page.index('id="about"')
    cells = page[page.index('id="gate-cells"') :]
    assert "actions" in cells and "-10 [-30, +10]" in cells and "not enough evidence" in cells
