"""A fast outcome source for tune's decisions: planted pass probabilities instead of models and graders.

The calibration of the tune -> acceptance -> publish path (``tests/stats/test_calibration_tune_path.py``,
``tuner.publish.simulate``) runs the product's own functions (the screening's engine and
``assemble``, the regression ``check``, ``confirm``, ``accept``, the publish ``gate``) thousands of
times; only where answers come from differs (``tuner.tuning.measure.Measure``). A world, stated so
every figure is read correctly:

- **The suite's shape**: categories with their tuning and held-out evals, read from a real suite
  (``Shape.of_suite``) or given.
- **Each eval's baseline pass probability**, drawn per repetition uniformly from ``rates``
  (30-90%, the range of the shipped simulator's profiles; ``target_rates`` for the target's evals
  when the world wants room to improve there).
- **Effects**: each ``Term`` adds ``shifts[category]`` (plus, per eval, ``spread`` times a standard
  normal draw fixed per repetition) to the pass probability of every eval of that category whenever
  any of its ``rules`` is in the prompt; probabilities are clipped to [0.01, 0.99]. A term whose
  rules are all in the baseline is there already; one of two redundant rules (a term over both)
  can be dropped without effect.
- **Answers**: independent Bernoulli draws given the prompt's probability, a pure function of
  (repetition, the prompt's rule set, eval, sample index): asking again replays the same answer, as
  the response cache does, and two prompts never share a draw (the shipped simulator seeds its
  noise per prompt and sample index too). ``lost``: the chance an answer is an infrastructure
  failure.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from types import SimpleNamespace

__all__ = ["Shape", "Term", "World", "WorldMeasure"]

MODEL = "sim/world"


@dataclass(frozen=True)
class Shape:
    """The suite's evals: (id, category, held out), in suite order."""

    evals_: tuple[tuple[str, str, bool], ...]

    @classmethod
    def of(cls, categories: dict[str, tuple[int, int]]) -> "Shape":
        """Made-up evals: category -> (tuning evals, held-out evals)."""
        return cls(
            tuple(
                (f"{c}/{'h' if held else 't'}{i}", c, held)
                for c, (t, h) in categories.items()
                for held, n in ((False, t), (True, h))
                for i in range(n)
            )
        )

    @classmethod
    def of_suite(cls, suite) -> "Shape":
        """A real suite's evals (``tuner.evals.load_suite``)."""
        return cls(tuple((e.id, e.category, e.held_out) for e in suite.evals))

    def evals(self) -> list[SimpleNamespace]:
        """Eval stand-ins (``id``, ``category``, ``held_out``)."""
        return [SimpleNamespace(id=i, category=c, held_out=h) for i, c, h in self.evals_]


@dataclass(frozen=True)
class Term:
    rules: tuple[str, ...]  # active when any of these is in the prompt
    shifts: dict[str, float] = field(default_factory=dict)  # category -> change of pass probability
    spread: float = 0.0  # per-eval standard deviation around the category's shift


@dataclass(frozen=True)
class World:
    shape: Shape
    target: str
    baseline: tuple[str, ...]  # the baseline's rules (each in its default phrasing)
    candidates: tuple[str, ...]  # pool rules not in the baseline
    terms: tuple[Term, ...] = ()
    rates: tuple[float, float] = (0.3, 0.9)
    target_rates: tuple[float, float] | None = None  # the target's evals, when they differ (room to improve)
    lost: float = 0.0
    models: int = 1

    @property
    def pool(self) -> list[str]:
        return sorted(set(self.baseline) | set(self.candidates))

    def suite(self) -> SimpleNamespace:
        """What ``confirm`` reads of a suite (``h.suite.evals``)."""
        evals = self.shape.evals()
        return SimpleNamespace(
            suite=SimpleNamespace(
                evals=evals,
                select=lambda held_out=None: [e for e in evals if held_out is None or e.held_out == held_out],
            )
        )

    def specs(self) -> list[SimpleNamespace]:
        return [
            SimpleNamespace(key=f"{MODEL}#{m}", model=MODEL, params={"world_model": m} if m else {})
            for m in range(self.models)
        ]

    def config(self, seed: int, **overrides):
        """The study's configuration for repetition ``seed``."""
        from tuner.tuning.config import TuneConfig

        fields = dict(
            category=self.target,
            models=[{"model": MODEL, "params": s.params} if s.params else {"model": MODEL} for s in self.specs()],
            samples=4,
            tolerance=0.15,
            baseline="world",
            baseline_selection={r: "default" for r in self.baseline},
            pool=self.pool,
            variants={r: ["default"] for r in self.pool},
            eval_ids=[e.id for e in self.shape.evals() if not e.held_out],
            seed=seed,
            search="screen",
        )
        return TuneConfig(**{**fields, **overrides})

    def measure(self, seed: int, specs: list | None = None) -> "WorldMeasure":
        """The answers of repetition ``seed`` (``specs``: the models' stand-ins; default ``specs()``)."""
        return WorldMeasure(self, seed, specs)


def _mix(x):
    """SplitMix64's finaliser on uint64 arrays: a well-mixed hash of consecutive integers."""
    import numpy as np

    with np.errstate(over="ignore"):
        x = (x + np.uint64(0x9E3779B97F4A7C15)).astype(np.uint64)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def _key(*parts) -> int:
    return int.from_bytes(hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=8).digest(), "big")


@dataclass(slots=True)
class _Result:
    eval_id: str
    category: str
    sample_index: int
    outcome: str


class WorldMeasure:
    """The world's answers for one repetition: a ``Measure`` (``tuner.tuning.measure``) and the
    rule-effect engine's ``observe``."""

    def __init__(self, world: World, seed: int, specs: list | None = None):
        import numpy as np

        self.world, self.seed = world, seed
        self.specs = list(specs) if specs is not None else world.specs()
        rng = np.random.default_rng(_key("world", seed) % 2**63)
        self.evals = world.shape.evals()
        self.category = {e.id: e.category for e in self.evals}
        self.index = {e.id: i for i, e in enumerate(self.evals)}
        self.base = rng.uniform(*world.rates, len(self.evals))
        if world.target_rates is not None:
            mask = [e.category == world.target for e in self.evals]
            self.base[mask] = rng.uniform(*world.target_rates, sum(mask))
        self.noise = rng.standard_normal((len(world.terms), len(self.evals)))
        self.calls = 0
        self._p: dict[frozenset, object] = {}

    def p(self, rules: frozenset):
        """Every eval's pass probability under a prompt holding ``rules``."""
        import numpy as np

        if rules not in self._p:
            p = self.base.copy()
            cats = [self.category[e.id] for e in self.evals]
            for t, term in enumerate(self.world.terms):
                if rules & set(term.rules):
                    p += np.array([term.shifts.get(c, 0.0) for c in cats]) + term.spread * self.noise[t]
            self._p[rules] = np.clip(p, 0.01, 0.99)
        return self._p[rules]

    def _u(self, salt: str, rules: frozenset, eval_ids: list[str], first: int, n: int):
        """Uniforms (evals x samples) keyed by (repetition, salt, rules, eval, sample index)."""
        import numpy as np

        head = np.uint64(_key(self.seed, salt, ",".join(sorted(rules))))
        evals = _mix(head + np.array([self.index[e] for e in eval_ids], dtype=np.uint64) * np.uint64(0x9E3779B1))
        samples = np.arange(first, first + n, dtype=np.uint64)
        return _mix(evals[:, None] ^ _mix(samples)[None, :]).astype(np.float64) / 2.0**64

    def draws(self, rules: frozenset, eval_ids: list[str], first: int, n: int):
        """(passed, lost) arrays (evals x samples) of samples ``first .. first + n - 1``."""
        import numpy as np

        p = self.p(rules)[[self.index[e] for e in eval_ids]]
        passed = self._u("answer", rules, eval_ids, first, n) < p[:, None]
        if not self.world.lost:
            return passed, np.zeros(passed.shape, bool)
        return passed, self._u("lost", rules, eval_ids, first, n) < self.world.lost

    def _rules(self, selection, spec) -> frozenset:
        rules = frozenset(selection)
        return rules | {f"@{spec.key}"} if len(self.specs) > 1 else rules

    def __call__(self, selections, eval_ids, samples, offset=0):
        import numpy as np

        from tuner.runs import RunOutcome

        eval_ids = list(eval_ids)
        out = []
        for name, selection in selections:
            group = {}
            for spec in self.specs:
                passed, lost = self.draws(self._rules(selection, spec), eval_ids, offset, samples)
                outcome = np.where(lost, "infra", np.where(passed, "pass", "fail"))
                results = [
                    _Result(e, self.category[e], offset + i, str(outcome[j, i]))
                    for j, e in enumerate(eval_ids)
                    for i in range(samples)
                ]
                run = SimpleNamespace(
                    id=f"{name}:{_key(sorted(selection.items()), spec.key, offset):x}",
                    model=spec.model,
                    params=getattr(spec, "params", {}),
                )
                self.calls += len(results)
                group[spec.key] = RunOutcome(
                    run=run,
                    prompt=SimpleNamespace(tokens=len(selection)),
                    results=results,
                    summary={},
                    new_calls=len(results),
                )
            out.append(group)
        return out

    def observe(self, pool: dict[str, str]):
        """The engine's ``observe`` (``tuner.engine.Observe``) over ``pool``: each point's
        prompt is the pool without its dropped rules, at sample index = its replicate. The draws
        are ``draws``' for one eval and one sample, made for all the points of a look at once."""
        import numpy as np

        def observe(points):
            seen = [{} for _ in points]
            idx = np.array([self.index[pt.eval_id] for pt in points], dtype=np.uint64)
            samples = _mix(np.array([pt.replicate for pt in points], dtype=np.uint64))
            for spec in self.specs:
                prompts = [self._rules(set(pool) - set(pt.dropped), spec) for pt in points]

                def uniforms(salt: str):
                    heads = np.array([_key(self.seed, salt, ",".join(sorted(r))) for r in prompts], dtype=np.uint64)
                    return _mix(_mix(heads + idx * np.uint64(0x9E3779B1)) ^ samples).astype(np.float64) / 2.0**64

                p = np.array([self.p(r)[self.index[pt.eval_id]] for r, pt in zip(prompts, points)])
                passed = uniforms("answer") < p
                lost = uniforms("lost") < self.world.lost if self.world.lost else np.zeros(len(points), bool)
                for i, (ok, gone) in enumerate(zip(passed.tolist(), lost.tolist())):
                    seen[i][spec.key] = None if gone else ok
            self.calls += len(points) * len(self.specs)
            return seen, len(points) * len(self.specs)

        return observe
