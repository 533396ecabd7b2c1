"""The Optuna adapter's contract (``tuner.tuning.study``'s docstring), and that it is the only door to Optuna."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tuner.errors import InputError, NotFoundError
from tuner.tuning.config import TuneConfig
from tuner.tuning.scoring import TrialScore
from tuner.tuning.study import best_trial, load_config, open_study, recorder, set_winner, trials

PACKAGE = Path(__file__).resolve().parents[2] / "tuner"
CONFIG = TuneConfig(
    category="c",
    models=[{"model": "sim/careful"}],
    baseline="b",
    baseline_selection={"a": "default"},
    pool=["a", "b"],
    variants={"a": ["default", "terse"], "b": ["default"]},
    eval_ids=["c/1", "d/1"],
)
LIBRARY = SimpleNamespace(
    get=lambda rid: SimpleNamespace(variant_names=["default", "terse"] if rid == "a" else ["default"])
)


def _score(target: float | None = 0.5, constraint: float = -0.05, **more) -> TrialScore:
    return TrialScore(target=target, constraint=constraint, tokens=10, deltas={}, run_ids=["r1"], calls=4, **more)


def _optuna_use(tree) -> tuple[bool, list[str]]:
    """(whether the module imports optuna, the private names it imports or attributes it reads)."""
    imports, private = False, []
    for node in ast.walk(tree):
        names = (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        if any(n == "optuna" or n.startswith("optuna.") for n in names):
            imports = True
            private += [n for n in names if any(part.startswith("_") for part in n.split("."))]
            if isinstance(node, ast.ImportFrom):
                private += [a.name for a in node.names if a.name.startswith("_")]
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            private.append(f".{node.attr}")
    return imports, private


def test_optuna_is_imported_by_the_adapter_alone_and_never_privately():
    importers, private = [], {}
    for path in PACKAGE.rglob("*.py"):
        imports, names = _optuna_use(ast.parse(path.read_text(encoding="utf-8")))
        if imports:
            importers.append(path.relative_to(PACKAGE).as_posix())
            private[path.name] = names
    assert importers == ["tuning/study.py"]
    assert private == {"study.py": []}
    # The check sees what the former modules did.
    assert _optuna_use(ast.parse("from optuna.storages._rdb import models\nx = study._storage"))[1] == [
        "optuna.storages._rdb",
        "._storage",
    ]


def test_open_creates_then_loads_and_refuses_another_configuration(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    study = open_study(url, "s", CONFIG)
    assert load_config(study) == CONFIG
    assert load_config(open_study(url, "s", CONFIG)).hash == CONFIG.hash  # the same command finds it again
    assert load_config(open_study(url, "s")).hash == CONFIG.hash
    with pytest.raises(InputError, match="different configuration"):
        open_study(url, "s", CONFIG.model_copy(update={"category": "d"}))


def test_loading_an_unknown_study_creates_nothing(tmp_path):
    with pytest.raises(NotFoundError, match="unknown study 'nope'"):
        open_study(f"sqlite:///{tmp_path / 'none.db'}", "nope")
    assert not (tmp_path / "none.db").exists()
    url = f"sqlite:///{tmp_path / 's.db'}"
    open_study(url, "s", CONFIG)
    with pytest.raises(NotFoundError, match="unknown study 'other'"):
        open_study(url, "other")
    with pytest.raises(InputError, match="not a SQLAlchemy database URL"):
        open_study("not a url", "s")


def test_a_recorded_selection_is_one_complete_trial_written_once(tmp_path):
    study = open_study(f"sqlite:///{tmp_path / 's.db'}", "s", CONFIG)
    record = recorder(study, CONFIG, LIBRARY)
    record({"a": "default"}, _score(0.4), True)
    record({"a": "terse", "b": "default"}, _score(0.7, regressed=[]), False)
    record({"a": "terse", "b": "default"}, _score(0.7), False)  # again: nothing new
    # A recorder opened later (the next invocation) knows what is there.
    recorder(study, CONFIG, LIBRARY)({"a": "default"}, _score(0.4), True)
    got = trials(study)
    assert [(t.number, t.complete, t.baseline, t.selection, t.value) for t in got] == [
        (0, True, True, {"a": "default"}, 0.4),
        (1, True, False, {"a": "terse", "b": "default"}, 0.7),
    ]
    assert got[1].feasible and got[1].tokens == 10 and got[1].calls == 4 and got[1].run_ids == ["r1"]
    assert all(t.state.name != "RUNNING" for t in study.get_trials())


def test_an_unmeasured_selection_fails_and_is_measured_again_later(tmp_path):
    study = open_study(f"sqlite:///{tmp_path / 's.db'}", "s", CONFIG)
    record = recorder(study, CONFIG, LIBRARY)
    record({"b": "default"}, _score(None, 1.0, not_measured=["m · c"]), False)
    record({"b": "default"}, _score(0.6), False)
    got = trials(study)
    assert [(t.complete, t.feasible) for t in got] == [(False, False), (True, True)]


def test_the_best_trial_is_the_one_holding_the_winner(tmp_path):
    study = open_study(f"sqlite:///{tmp_path / 's.db'}", "s", CONFIG)
    record = recorder(study, CONFIG, LIBRARY)
    record({"a": "default"}, _score(0.4), True)
    record({"a": "default", "b": "default"}, _score(0.9, 0.04, regressed=["m · d"]), False)  # refused: a drop
    record({"a": "terse"}, _score(0.6), False)
    set_winner(study, {"a": "terse"})
    best = best_trial(study)
    assert best.number == 2 and json.loads(best.user_attrs["selection"]) == {"a": "terse"}
    set_winner(study, {"a": "default", "b": "default"})  # infeasible: no best trial, never a fallback
    assert best_trial(study) is None
    set_winner(study, {"a": "default"})
    assert best_trial(open_study(f"sqlite:///{tmp_path / 's.db'}", "s")).number == 0
