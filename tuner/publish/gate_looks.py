"""The publish gate's looks: retrying it with more ``--samples`` continues one sequential test.

The gate's fresh samples of a candidate against what users have today sit at a fixed window of
sample indices (``gate_offset``), so a retry with more samples re-reads the first ones and adds new
ones. A fresh fixed non-inferiority test on the grown sample at every retry spends ``alpha``
again each time: the chance of calling a candidate whose true drop is the margin "non-inferior"
went from 0.04 to 0.09-0.11 over a few retries. Here the retries are looks of one sequential test
(``tuner.stats.zones.continued_level``): the first look tests at ``(1 - RESERVE) alpha``, a
retry at ``k`` samples at what the sequence has left by ``k``, ``alpha (1 - RESERVE k1 / k)`` minus
what earlier looks spent (``k1``: the first look's samples), and a retry at a size already looked
at replays that look's level. However many retries come, the levels add up to at most ``alpha``
(the union bound over looks: ``tests/stats/test_calibration_gate_retries.py``).

Identity: a sequence is the gate of this candidate's exact text against that of the other side,
on these models, held-out evals and margin (``--samples`` is not part of it); its looks are
recorded as an experiment of kind "publish" (``Store.engine_looks``, design "noninferiority").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tuner.hashing import sha256_json
from tuner.stats import ALPHA
from tuner.stats.zones import continued_level

__all__ = ["GateLooks"]

_DESIGN = "noninferiority"


@dataclass
class GateLooks:
    h: object
    id: str
    name: str
    anchor: int | None = None
    made: list[tuple[int, float]] = field(default_factory=list)

    @classmethod
    def open(
        cls, h, name: str, candidate_hash: str, against_hash: str, specs: list, held: list[str], margin: float
    ) -> GateLooks:
        # Not the name it is published under: the same two texts read the same samples (``gate_offset``).
        config = {
            "candidate": candidate_hash,
            "against": against_hash,
            "models": [s.key for s in specs],
            "evals": held,
            "margin": margin,
            "alpha": ALPHA,
        }
        gate_id = sha256_json({"kind": "publish-gate", **config})
        anchor, made = h.store.engine_looks(gate_id, _DESIGN)
        if anchor is None:
            h.store.save_experiment(gate_id, f"publish-gate-{name}", "publish", config, status="running")
        return cls(h, gate_id, name, anchor, [(n, a) for n, a, _ in made])

    def level(self, samples: int) -> float:
        """The non-inferiority test's level at a look at ``samples`` per eval."""
        return continued_level(ALPHA, samples, self.made, self.anchor)

    def record(self, samples: int, level: float, status: str) -> None:
        """Record a look (a replay of one already made is recorded once) and the gate's status after it."""
        if not any(n == samples for n, _ in self.made):
            anchor = samples if self.anchor is None else self.anchor
            self.h.store.record_engine_look(self.id, _DESIGN, anchor, len(self.made), (samples, level, 0.0))
            self.anchor, self.made = anchor, [*self.made, (samples, level)]
        self.h.store.finish_experiment(
            self.id,
            "finished",
            result={
                "gate": {
                    "status": status,
                    "samples": samples,
                    "noninferiority_alpha": level,
                    "looks": [list(x) for x in self.made],
                    "alpha_spent": sum(a for _, a in self.made),
                }
            },
        )
