"""`tuner tune` and `tuner publish` through the CLI on the Python suite, with answers from a simulated
world (``tuner.tuning.simulate``) instead of the simulated provider and the pytest grader: the
product's whole path (store, study, screening engine, check, confirmation, decision, gate, files),
in seconds. Only the functions that fetch answers are replaced:

- ``tuning.measure.harness_measure`` (the check and the confirmation) and the screening's baseline
  (``run_selections`` in ``tuning.screen``);
- ``runs.execute_points`` (the screening's engine) and ``runs.execute_runs`` (the publish gate);
- ``tuning.tune._link_runs``: the world's runs are not in the store, so there is nothing to link.
"""

from __future__ import annotations

from types import SimpleNamespace

from tuner.tuning.simulate import Term, World


def suite_world(
    terms: tuple[Term, ...],
    *,
    target: str = "data",
    lost: float = 0.0,
    target_rates: tuple[float, float] | None = (0.3, 0.6),
) -> World:
    """A world over the current project's suite (its real eval ids; rules are named by their real
    ids in ``terms``)."""
    from tuner.evals import load_suite
    from tuner.paths import find_project
    from tuner.tuning.simulate import Shape

    return World(
        shape=Shape.of_suite(load_suite(find_project())),
        target=target,
        baseline=(),
        candidates=(),
        terms=terms,
        lost=lost,
        target_rates=target_rates,
    )


def use_world(monkeypatch, world: World, seed: int = 0, tamper=None):
    """Answer every call of tune and publish from ``world`` (repetition ``seed``); returns a log of
    the (selection rules, eval ids, samples, offset) each phase asked for. ``tamper(selections,
    eval_ids, samples, offset, groups)`` may change the runs' results before tune sees them."""
    import importlib

    import tuner.runs as runs
    from tuner.runs import RunOutcome

    screen = importlib.import_module("tuner.tuning.screen")
    tune = importlib.import_module("tuner.tuning.tune")  # the package exports a function of that name
    study = importlib.import_module("tuner.tuning.study")

    log: list[tuple] = []
    measures: dict[tuple, object] = {}

    def measure_for(specs):
        key = tuple(s.key for s in specs)
        if key not in measures:
            measures[key] = world.measure(seed, specs)
        return measures[key]

    def harness_measure(h, specs, progress=None):
        m = measure_for(specs)

        def measure(selections, eval_ids, samples, offset=0):
            log.append(("measure", [sorted(s) for _, s in selections], list(eval_ids), samples, offset))
            groups = m(selections, eval_ids, samples, offset)
            if tamper is not None:
                tamper(selections, eval_ids, samples, offset, groups)
            return groups

        return measure

    def run_selections(h, selections, specs, eval_ids, *, samples, sample_offset=0, experiment_id=None, progress=None):
        return harness_measure(h, specs)(selections, eval_ids, samples, sample_offset)

    def execute_points(h, exp_id, points, specs, name="design", progress=None):
        m = measure_for(specs)
        found = []
        for pt in points:
            row = {}
            for spec in specs:
                passed, lost = m.draws(m._rules(pt.selection, spec), [pt.eval_id], pt.sample_index, 1)
                outcome = "infra" if lost[0, 0] else ("pass" if passed[0, 0] else "fail")
                # A design point's row as the store keeps it: a failed answer names its failing step.
                row[spec.key] = SimpleNamespace(outcome=outcome, failed_step="tests" if outcome == "fail" else None)
            found.append(row)
        log.append(("points", len(points)))
        return found, len(points) * len(specs)

    def execute_runs(h, configs, progress=None):
        out = []
        for cfg in configs:
            rules = (
                {r.id: r.variant for r in cfg.prompt.rules}
                if cfg.prompt is not None
                else {rid: cfg.rule_set.variants.get(rid, "default") for rid in cfg.rule_set.include}
            )
            log.append(("runs", sorted(rules), list(cfg.eval_ids), cfg.samples, cfg.sample_offset))
            [group] = measure_for([cfg.spec])(
                [(cfg.rule_set.name, rules)], list(cfg.eval_ids), cfg.samples, cfg.sample_offset
            )
            outcome = group[cfg.spec.key]
            prompt = cfg.prompt or h.guidelines.compose(cfg.rule_set)
            out.append(
                RunOutcome(
                    run=outcome.run, prompt=prompt, results=outcome.results, summary={}, new_calls=outcome.new_calls
                )
            )
        return out

    for module in (screen, tune, study, importlib.import_module("tuner.tuning.confirmation")):
        # Every name a phase fetches answers through (the seam, and the former direct calls, so the
        # same tests run against the code before the seam existed).
        for name, fake in (("harness_measure", harness_measure), ("run_selections", run_selections)):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, fake)
    monkeypatch.setattr(runs, "execute_points", execute_points)
    monkeypatch.setattr(runs, "execute_runs", execute_runs)
    monkeypatch.setattr(tune, "_link_runs", lambda *a, **k: None)
    return log
