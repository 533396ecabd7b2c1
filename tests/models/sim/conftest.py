"""The simulator's planted truth and eval list for the Convex suite, loaded once for the tests here."""

from __future__ import annotations

import pytest

from tuner.models.sim.profiles import load_sim_data
from tuner.models.sim.suite import load_suite


@pytest.fixture(scope="session")
def data(suite_root):
    """The planted gaps, cures and profiles (evals/sim); read only."""
    return load_sim_data(suite_root, None)


@pytest.fixture(scope="session")
def suite(suite_root):
    """The simulator's view of the evals; read only."""
    return load_suite(suite_root)
