"""Where the simulator finds its planted truth and suite, and a hash of both.

Root: TUNER_HOME or the working directory (as ``find_project``), falling back to the checkout this
package is installed from (editable install), so ``sim/*`` works from anywhere in a dev setup.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from tuner.errors import TunerError
from tuner.hashing import sha256_json
from tuner.models.sim.profiles import load_sim_data
from tuner.models.sim.suite import load_suite

__all__ = ["sim_root", "fingerprint"]


def sim_root() -> Path:
    return _root_for(os.environ.get("TUNER_HOME"), os.getcwd())


@lru_cache(maxsize=16)
def _root_for(_home: str | None, _cwd: str) -> Path:
    # Cached per (TUNER_HOME, cwd): walking up the tree on every simulated call is measurable.
    from tuner.paths import find_project

    try:
        return find_project().root
    except TunerError:
        return Path(__file__).resolve().parents[3]


def fingerprint(sim_file: str | None = None, root: Path | None = None) -> str:
    """Changes whenever a simulated answer could: the planted truth or a reference answer."""
    root = root or sim_root()
    suite = load_suite(root)
    return sha256_json(
        {
            "data": load_sim_data(root, sim_file).digest,
            "suite": [(e.id, e.task, e.answer) for e in suite],
        }
    )
