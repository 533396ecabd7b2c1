"""A tune's experiment page (issue 21): its optimisation history from the Optuna trials stored in
the same database, its rule importance and the winner's rule effects as charts."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")


def test_tune_page_charts_history_importance_and_effects(env, store):
    import optuna
    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.web import Login, create_app

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name="tune-text-test", storage=env.url, direction="maximize")
    for value in (0.4, 0.7, 0.55, 0.9):
        study.add_trial(optuna.trial.create_trial(params={}, distributions={}, value=value))
    effects = [
        {
            "rule": "py.casefold",
            "model": "sim/careful",
            "category": "text",
            "delta": 0.2,
            "lo": 0.05,
            "hi": 0.35,
            "p_value": 0.01,
            "verdict": "helps",
            "decided_round": 2,
        }
    ]
    store.start_experiment("sha256:tune-test", "tune-text-test", "tune", {"category": "text"})
    store.finish_experiment(
        "sha256:tune-test",
        "finished",
        {"importance": {"py.casefold": 0.8, "py.unicode-normalize": 0.2}, "rule_effects": effects, "evidence": {}},
    )
    with TestClient(create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1") as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        page = c.get("/experiments/sha256:tune-test").text
    history = page[page.index('id="tune-history"') :]
    history = history[: history.index("</svg>")]
    assert history.count("<circle") == 4 and "trial 3: 0.900" in history and "<path" in history
    importance = page[page.index('id="importance"') :]
    assert 'href="/rule/py.casefold"' in importance[: importance.index("</svg>")]
    forest = page[page.index('id="tune-effects"') :]
    assert forest[: forest.index("</svg>")].count("<circle") == 1
