"""Session queries, labels and exports on PostgreSQL (the store's other backend)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.postgres


def test_sessions_labels_and_export_on_postgres(pg_url):
    from types import SimpleNamespace

    from tuner.apikeys import create_key, verify_key
    from tuner.sessions import apply_labels, export_sessions, label_change, list_sessions, session_filter
    from tuner.store import ResultRecord, RunSpec, Store

    store = Store.open(pg_url)
    try:
        store.save_prompt(SimpleNamespace(hash="p", set_name="s", template="t", rules=[], tokens=1, text="RULES"))
        runs = []
        for grader in ("g1", "g2"):  # the same generations graded twice
            run = store.start_run(
                RunSpec(
                    prompt_hash="p",
                    set_name="s",
                    model="sim/careful",
                    model_key="k",
                    params={},
                    suite="convex",
                    suite_hash="h",
                    grader_hash=grader,
                    eval_ids=["001-a/001-x"],
                    samples=3,
                )
            )
            store.record_results(
                run.id,
                [
                    ResultRecord(
                        eval_id="001-a/001-x",
                        category="a",
                        sample_index=i,
                        outcome="pass" if i else "fail",
                        output=f"answer {i}",
                        response_key=f"sha256:{i:064x}",
                        messages=[{"role": "system", "prompt_hash": "p"}, {"role": "user", "content": f"task {i}"}],
                    )
                    for i in range(3)
                ],
            )
            runs.append(run.id)
        assert len(list_sessions(store).items) == 3
        apply_labels(store, ["sha256:" + f"{1:064x}"], label_change(status="golden", add_tags=["x_y"]))
        [s] = list_sessions(store, session_filter(tag="x_y")).items
        assert s.run_id == runs[1] and s.label.eval_status == "golden"
        assert not list_sessions(store, session_filter(tag="x")).items  # exact tags, '_' is no wildcard
        assert len(list_sessions(store, session_filter(status="needs_review")).items) == 2
        [line] = export_sessions(store, "openai").text.splitlines()
        assert json.loads(line)["messages"] == [
            {"role": "system", "content": "RULES"},
            {"role": "user", "content": "task 1"},
            {"role": "assistant", "content": "answer 1"},
        ]
        key = create_key(store, "pg")
        assert verify_key(store, key.secret).id == key.key.id and verify_key(store, key.secret + "x") is None
    finally:
        store.close()
