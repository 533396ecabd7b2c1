"""``Store.engine_looks`` / ``record_engine_look`` (tuner/store/looks.py): an engine design's looks,
recorded with its experiment so that a continuation spends only what is left."""

import pytest

from tuner.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store.open(f"sqlite:///{tmp_path / 'looks.db'}")
    yield s
    s.close()


def test_looks_are_recorded_in_order_per_design_and_a_replay_changes_nothing(store):
    store.start_experiment("e1", "ablate-x", "ablate", {"design": "adaptive", "budget_calls": 600})
    assert store.engine_looks("e1", "adaptive") == (None, [])
    store.record_engine_look("e1", "adaptive", 100, 0, (22, 1e-5, 3e-4))
    store.record_engine_look("e1", "adaptive", 100, 1, (66, 0.01, 0.03))
    store.record_engine_look("e1", "adaptive", 999, 0, (22, 0.05, 0.1))  # a replay of look 1: kept as it was
    store.record_engine_look("e1", "screen", 40, 0, (10, 0.001, 0.002))  # another design of the same experiment
    assert store.engine_looks("e1", "adaptive") == (100, [(22, 1e-5, 3e-4), (66, 0.01, 0.03)])
    assert store.engine_looks("e1", "screen") == (40, [(10, 0.001, 0.002)])
    # Finishing the experiment (its config is not rewritten) keeps the looks.
    store.save_experiment("e1", "ablate-x", "ablate", {"design": "adaptive", "budget_calls": 900}, result={"ok": 1})
    assert store.engine_looks("e1", "adaptive")[1][-1] == (66, 0.01, 0.03)
    assert store.experiment("e1")["config"]["budget_calls"] == 600


def test_a_look_out_of_order_or_of_an_unknown_experiment_is_refused(store):
    from tuner.errors import NotFoundError

    store.start_experiment("e2", "ablate-y", "ablate", {})
    with pytest.raises(ValueError, match="look 3"):
        store.record_engine_look("e2", "adaptive", 50, 2, (40, 0.01, 0.01))
    with pytest.raises(NotFoundError):
        store.record_engine_look("nope", "adaptive", 50, 0, (40, 0.01, 0.01))
