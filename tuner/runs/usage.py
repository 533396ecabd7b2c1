"""What was spent: provider calls, tokens and cost, from what the store recorded. The one source of
these figures for the CLI's summaries (``runs list``/``runs show``), the viewer's home and
experiment pages: a command's own "spent" line counts the same calls as they are made.

Every provider call is recorded on the result (a run's) or the point (a design's) it answered, as
``attempts`` (retries included; 0 for a cache hit). So:

- **calls** are the attempts summed;
- **tokens** are those of the answers a call was made for (a cache hit sent nothing; a command's
  spent line counts the same way);
- **cost** is litellm's price of each paid answer; the simulator's price is $0 (as the plan says),
  a model litellm does not price is unknown, and a sum over answers some of which are unpriced is
  shown as a lower bound, never as the whole.

An experiment's figures are what *it* spent: the calls on the runs it made and on its design
points. A run belongs to the first experiment that linked it (the command that made it); a later
experiment that reads it again (a compare reusing a `tuner run`) lists it as reused, and its calls
are not counted twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from tuner.store.experiments import experiment_links
from tuner.store.experiments import run_owners as owners
from tuner.store.usage import SIM_PREFIX, Usage, fmt_cost, points_usage, run_states, run_usage, total_usage

__all__ = [
    "Usage",
    "ExperimentUsage",
    "run_usage",
    "points_usage",
    "experiment_usage",
    "total_usage",
    "fmt_cost",
    "plural",
    "UsageCache",
    "SIM_PREFIX",
    "owners",
    "experiment_links",
]


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 provider call``, ``2 provider calls`` (thousands separated)."""
    return f"{n:,} {word if n == 1 else words or word + 's'}"


class ExperimentUsage(BaseModel):
    """What one experiment spent, and what it read from runs other experiments made."""

    spent: Usage = Field(default_factory=Usage)  # its own runs' results + its design points
    runs: int = 0  # runs it made
    points: int = 0  # design points it recorded
    reused: Usage = Field(default_factory=Usage)  # calls recorded on the runs it reused (spent by their maker)
    reused_runs: int = 0
    owned: list[str] = Field(default_factory=list)  # the ids of the runs it made


def experiment_usage(
    store, links: dict[str, list[str]], *, cache: "UsageCache | None" = None
) -> dict[str, ExperimentUsage]:
    """{experiment id: ExperimentUsage} given each experiment's linked runs (``links``)."""
    all_runs = list(dict.fromkeys(r for rs in links.values() for r in rs))
    by_run = cache.usage(store, all_runs) if cache is not None else run_usage(store, all_runs)
    made_by = owners(store, all_runs)
    points = points_usage(store, links)
    out = {}
    for eid, runs in links.items():
        runs = list(dict.fromkeys(runs))
        mine = [r for r in runs if made_by.get(r, eid) == eid]
        other = [r for r in runs if made_by.get(r, eid) != eid]
        pts = points[eid]
        out[eid] = ExperimentUsage(
            spent=total_usage([by_run[r] for r in mine]) + pts,
            runs=len(mine),
            points=pts.results,
            reused=total_usage(by_run[r] for r in other),
            reused_runs=len(other),
            owned=mine,
        )
    return out


class UsageCache:
    """Usage of finished runs, kept in memory (the viewer's pages sum it for many runs at once).

    Summing a run's results reads every one of its rows, which on a large store takes long enough
    to matter when a page needs a hundred runs; a finished run's results no longer change, so its
    sum is kept, keyed by the run's last write (a resumed run is written again, so it is summed
    again). Running runs are always summed afresh.
    """

    def __init__(self, max_runs: int = 20_000):
        self._kept: dict[tuple[str, object], Usage] = {}
        self._max = max_runs

    def usage(self, store, run_ids: Iterable[str]) -> dict[str, Usage]:
        ids = list(dict.fromkeys(run_ids))
        state = run_states(store, ids)
        out = {
            rid: self._kept[(rid, state[rid][0])] for rid in ids if rid in state and (rid, state[rid][0]) in self._kept
        }
        fresh = run_usage(store, [rid for rid in ids if rid not in out])
        for rid, u in fresh.items():
            out[rid] = u
            if rid in state and state[rid][1] != "running":
                if len(self._kept) >= self._max:
                    self._kept.clear()  # crude, and rare: a store with more finished runs than this
                self._kept[(rid, state[rid][0])] = u
        return out
