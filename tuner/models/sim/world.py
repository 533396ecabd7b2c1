"""Where the simulator finds its planted truth and suite, and a hash of both.

The simulator is handed its suite folder by the harness (the ``sim_suite`` parameter of a call);
without one (``tuner models ping``, a bare litellm call) it uses the project's default suite, or
the checkout this package is installed from.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from tuner.errors import TunerError
from tuner.hashing import sha256_json
from tuner.models.sim.profiles import load_sim_data
from tuner.models.sim.suite import load_suite

__all__ = ["default_suite_root", "fingerprint"]


@lru_cache(maxsize=1)
def default_suite_root() -> Path:
    from tuner.paths import find_project

    try:
        return find_project().suite_root
    except TunerError:
        return Path(__file__).resolve().parents[3] / "evals"


def fingerprint(sim_file: str | None = None, suite_root: Path | None = None) -> str:
    """Changes whenever a simulated answer could: the planted truth or a reference answer."""
    root = Path(suite_root) if suite_root else default_suite_root()
    suite = load_suite(root)
    return sha256_json(
        {
            "data": load_sim_data(root, sim_file).digest,
            "suite": [(e.id, e.task, e.answer) for e in suite],
        }
    )
