"""The publish gate's looks: retrying it with more ``--samples`` continues one sequential test.

The gate's fresh samples of a candidate against what users have today sit at a fixed window of
sample indices (``gate_offset``), so a retry with more samples re-reads the first ones and adds new
ones. Both of the gate's questions are sequential over the retries, each with its own ``alpha``:

- **non-inferiority** ("passed"): a fresh fixed test on the grown sample at every retry spent
  ``alpha`` again each time: the chance of calling a candidate whose true drop is the margin
  "non-inferior" went from 0.04 to 0.09-0.11 over a few retries
  (``tests/stats/test_calibration_gate_retries.py``);
- **the drop test** ("regressed": refused unless ``--force``): a fresh test at every retry let a
  retry overturn a refusal, so a real regression refused once got published by retrying until a
  look missed it (a 15-point drop on the Convex gate: published 0.91 at one look, 0.95 over three
  retries), and a retry after a look that refused nothing (the same candidate under another name)
  refused by noise afresh (0.083 over four looks with refusals final, against alpha 0.05). Now a
  drop established at a look **stands**: a retry refuses without a call (``--force`` publishes,
  recorded as forced), and each look tests at the sequence's level, so false refusals stay within
  ``alpha`` however the retries come (0.021) and more samples never un-refuse a regression
  (``tests/stats/test_calibration_gate_drop_retries.py``).

The levels (``tuner.stats.zones.continued_level``): the first look tests at ``(1 - RESERVE) alpha``,
a retry at ``k`` samples at what the sequence has left by ``k``, ``alpha (1 - RESERVE k1 / k)`` minus
what earlier looks spent (``k1``: the first look's samples), and a retry at a size already looked
at replays that look's level. However many retries come, the levels add up to at most ``alpha``
(the union bound over looks). The two questions' looks are the same, so their levels are too.

Identity: a sequence is the gate of this candidate's exact text against that of the other side,
on these models, held-out evals and margin (``--samples`` and the published name are not part of
it); its looks are recorded as an experiment of kind "publish" (``Store.engine_looks``, designs
"noninferiority" and "drop"; the established drops in its result, ``gate.established``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tuner.hashing import sha256_json
from tuner.stats import ALPHA
from tuner.stats.zones import continued_level

__all__ = ["GateLooks"]

_DESIGN = "noninferiority"
_DROP = "drop"


@dataclass
class GateLooks:
    h: object
    id: str
    name: str
    anchor: int | None = None
    made: list[tuple[int, float]] = field(default_factory=list)
    drop_made: list[tuple[int, float]] = field(default_factory=list)
    # The drops established at earlier looks: {"model", "category", "samples", "p_adjusted", ...} each.
    established: list[dict] = field(default_factory=list)

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
        _, drop_made = h.store.engine_looks(gate_id, _DROP)
        exp = h.store.experiment(gate_id)
        if anchor is None:
            h.store.save_experiment(gate_id, f"publish-gate-{name}", "publish", config, status="running")
        drop = [(n, a) for n, a, _ in drop_made]
        established = (((exp or {}).get("result") or {}).get("gate") or {}).get("established") or []
        return cls(h, gate_id, name, anchor, [(n, a) for n, a, _ in made], drop, list(established))

    def level(self, samples: int) -> float:
        """The non-inferiority test's level at a look at ``samples`` per eval."""
        return continued_level(ALPHA, samples, self.made, self.anchor)

    def drop_level(self, samples: int) -> float:
        """The drop test's level at a look at ``samples`` per eval (the same spending, its own alpha)."""
        return continued_level(ALPHA, samples, self.drop_made, self.anchor)

    def record(self, samples: int, level: float, status: str, drop_level: float, rows: list[dict]) -> None:
        """Record a look (a replay of one already made is recorded once), the drops it established
        and the gate's status after it."""
        anchor = samples if self.anchor is None else self.anchor
        if not any(n == samples for n, _ in self.made):
            self.h.store.record_engine_look(self.id, _DESIGN, anchor, len(self.made), (samples, level, 0.0))
            self.made = [*self.made, (samples, level)]
        if not any(n == samples for n, _ in self.drop_made):
            self.h.store.record_engine_look(self.id, _DROP, anchor, len(self.drop_made), (samples, drop_level, 0.0))
            self.drop_made = [*self.drop_made, (samples, drop_level)]
        self.anchor = anchor
        have = {(e["model"], e["category"]) for e in self.established}
        self.established += [
            {
                "model": r["model"],
                "category": r["category"],
                "samples": samples,
                "level": drop_level,
                "pass_to_fail": r["drop"]["pass_to_fail"],
                "fail_to_pass": r["drop"]["fail_to_pass"],
                "p_adjusted": r["drop"]["p_adjusted"],
            }
            for r in rows
            if r["drop"]["regressed"] and (r["model"], r["category"]) not in have
        ]
        self.h.store.finish_experiment(
            self.id,
            "finished",
            result={
                "gate": {
                    "status": status,
                    "samples": samples,
                    "noninferiority_alpha": level,
                    "drop_alpha": drop_level,
                    "looks": [list(x) for x in self.made],
                    "drop_looks": [list(x) for x in self.drop_made],
                    "alpha_spent": sum(a for _, a in self.made),
                    "drop_alpha_spent": sum(a for _, a in self.drop_made),
                    "established": self.established,
                }
            },
        )
