"""Calibration of compare --placebo's claims on the path the engine runs (``build_cells`` per arm,
``finalize_arms``, ``helps_rows``), with mutants of its error control that the test must catch.

The A/A world: the set and the placebo are equally good (both far better than none). Every
placebo null is true, so any placebo cell with a verdict (and so any "beats placebo", and any "helps
beyond priming") is false; the chance of one in a table must stay at most alpha. Evals differ (pass
rates drawn per eval), samples of one eval are exchangeable, the set's outcomes are shared by both
comparisons as in the engine. Sizes: the smallest compare the Python suite runs (2 categories x 4
evals x 3 samples), and 4 categories x 4 evals x 20 samples, where exact McNemar is no longer so
conservative that a mutant hides under alpha (measured, 300 tables each, seed 5: 0.033; no BH
0.137; p halved 0.083).
"""

from __future__ import annotations

import numpy as np
import pytest

from tuner.compare import build_cells
from tuner.compare.placebo import BEYOND, finalize_arms, helps_rows
from tuner.models import ModelSpec
from tuner.runs.pairing import Paired
from tuner.stats import ALPHA

REPS = 300
EVALS = 4
SPEC = ModelSpec(model="sim/primed")
SMALL, LARGE = (2, 3), (4, 20)  # (categories, samples per eval)


def _merge(parts: list[Paired]) -> Paired:
    before, after = {}, {}
    for p in parts:
        before |= p.before
        after |= p.after
    return Paired(before=before, after=after, expected=sum(p.expected for p in parts))


def _table(rng, categories: int, samples: int):
    """One comparison's table: (placebo cells flagged, claims beyond priming, cells improved vs none)."""
    main, placebo = {}, {}
    for c in range(categories):
        evals = [f"c{c}/e{i}" for i in range(EVALS)]
        p_set = {e: rng.uniform(0.3, 0.9) for e in evals}  # the set and the placebo: equally good
        draw = lambda p: {e: list(rng.random(samples) < p[e]) for e in evals}  # noqa: E731
        set_draws, none_draws = draw(p_set), draw({e: p - 0.3 for e, p in p_set.items()})
        placebo_draws = draw(p_set)
        main[f"cat{c}"] = Paired(before=none_draws, after=set_draws, expected=EVALS * samples)
        placebo[f"cat{c}"] = Paired(before=placebo_draws, after=set_draws, expected=EVALS * samples)
    main_cells = build_cells(SPEC, main, _merge(list(main.values())))
    placebo_cells = build_cells(SPEC, placebo, _merge(list(placebo.values())))
    main_cells, placebo_cells = finalize_arms(main_cells, placebo_cells, ALPHA)
    rows = helps_rows(main_cells, placebo_cells)
    return (
        sum(c.verdict != "no detectable change" for c in placebo_cells),
        sum(r.claim == BEYOND for r in rows),
        sum(c.verdict == "improved" for c in main_cells),
    )


def _rates(size, seed: int = 5):
    rng = np.random.default_rng(seed)
    tables = [_table(rng, *size) for _ in range(REPS)]
    flagged = float(np.mean([t[0] > 0 for t in tables]))
    claimed = float(np.mean([t[1] > 0 for t in tables]))
    helps_vs_none = float(np.mean([t[2] > 0 for t in tables]))
    return flagged, claimed, helps_vs_none


@pytest.mark.parametrize(("size", "power"), [(SMALL, 0.25), (LARGE, 0.9)], ids=["2x4x3", "4x4x20"])
def test_aa_world_any_placebo_flag_at_most_alpha(size, power):
    flagged, claimed, helps_vs_none = _rates(size)
    # The set does help against none (in that share of tables): the placebo claims are really tested.
    assert helps_vs_none > power, helps_vs_none
    assert flagged <= ALPHA, flagged
    assert claimed <= flagged


def _no_multiplicity(monkeypatch):
    monkeypatch.setattr("tuner.compare.table.bh_adjust", lambda ps: list(ps))


def _p_halved(monkeypatch):
    import tuner.compare.table as table

    real = table.paired_compare

    def halved(before, after):
        r = real(before, after)
        return r.model_copy(update={"p_value": r.p_value / 2})

    monkeypatch.setattr(table, "paired_compare", halved)


@pytest.mark.parametrize("mutant", [_no_multiplicity, _p_halved], ids=["no-multiplicity", "p-halved"])
def test_the_calibration_catches_mutants_of_the_error_control(monkeypatch, mutant):
    mutant(monkeypatch)
    flagged, _, _ = _rates(LARGE)
    assert flagged > ALPHA, flagged
