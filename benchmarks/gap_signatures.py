"""Which grader signature each simulated mistake produces (issue 29, ``--modes signature`` of the
design lab): every planted gap and side effect of a profile, applied alone to each tuning eval's
reference answer of the categories asked, graded by the suite's real grader (Node: bundle, tsc,
eslint, vitest) and read as ``tuner.grading.signature.signature`` reads a stored grade (the Convex kind's reader).

Writes ``benchmarks/data/gap_signatures.json``: {eval id: {mistake id: signature}} (a mistake that
does not change an eval's answer is left out; one that still passes has the empty signature).
The design lab reads it; re-run this when the sim data or the grader changes.

Run: .venv/bin/python benchmarks/gap_signatures.py --profile careful --categories actions [--pairs]

``--pairs``: every pair of mistakes on each eval, graded together, against the design lab's model
of two mistakes (the union of their signatures at the earlier failing step). careful / actions:
284 of 296 pairs graded as modelled; the 12 others are mistakes that meet in the code
(filter-instead-of-index rewrites the query index-dropped breaks: eslint, not tsc; missing-use-node
and action-from-convex-server edit one import: one bundle error) or a tsc error that silences others
(handler-annotation-dropped's TS7022/TS7023 alone, TS2339/TS2719 unseen).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "data" / "gap_signatures.json"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="careful")
    parser.add_argument("--categories", default="actions")
    parser.add_argument(
        "--pairs",
        action="store_true",
        help="instead: grade every pair of mistakes on each eval and compare with the design lab's model "
        "(the union of the two signatures at the earlier failing step)",
    )
    args = parser.parse_args()

    from tuner.grading import GradeRequest
    from tuner.grading.signature import signature
    from tuner.models.sim.profiles import load_sim_data
    from tuner.runs import Harness
    from tuner.suites import grade

    h = Harness()
    data = load_sim_data(h.suite.root)
    prof = data.profile(args.profile)
    cats = args.categories.split(",")
    evals = [e for c in cats for e in h.suite.select(category=c, held_out=False)]
    requests, labels = [], []
    for ev in evals:
        answer = ev.answer_files()
        requests.append(GradeRequest(eval=ev, files=answer))
        labels.append((ev.id, "reference"))
        mistakes = [g for g in data.applicable(ev.id, answer) if g.id in prof.gaps]
        mistakes += [s for s in prof.side_effects if ev.category in s.categories and s.applies_to(answer)]
        for m in mistakes:
            files, changed = m.apply(answer)
            if changed:
                requests.append(GradeRequest(eval=ev, files=files))
                labels.append((ev.id, m.id))
    if args.pairs:
        return pairs(h, requests, labels)
    start = time.perf_counter()
    results = grade(h.project, requests, suite=h.suite)
    out = json.loads(OUT.read_text()) if OUT.exists() else {}
    for (eval_id, mistake), r in zip(labels, results):
        if r.infra_error:
            print(f"infra error on {eval_id} {mistake}: {r.infra_error}")
            continue
        sig = list(signature(r, h.suite.kind.failure_signature))
        if mistake == "reference":
            assert not sig, f"{eval_id}: the reference answer fails: {sig}"
            continue
        out.setdefault(eval_id, {})[mistake] = sig
        print(f"{eval_id:45} {mistake:45} {' '.join(sig) or 'PASS'}")
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(requests)} answers graded in {time.perf_counter() - start:.0f} s -> {OUT}")


def pairs(h, singles, labels) -> None:
    """How often two mistakes together show what the design lab assumes (``FastModel.signature_modes``)."""
    from itertools import combinations

    from tuner.grading import GradeRequest
    from tuner.grading.signature import signature
    from tuner.models.sim.profiles import load_sim_data
    from tuner.suites import grade

    table = json.loads(OUT.read_text())
    data = load_sim_data(h.suite.root)
    by_id = {g.id: g for g in data.gaps} | {s.id: s for p in data.profiles.values() for s in p.side_effects}
    order = ("filesystem", "codegen", "bundle", "tsc", "eslint", "tests")
    requests, expected = [], []
    evals = {req.eval.id: req.eval for req in singles}
    for eval_id, ev in evals.items():
        for a, b in combinations(sorted(table.get(eval_id, {})), 2):
            files, _ = by_id[a].apply(ev.answer_files())
            files, _ = by_id[b].apply(files)
            found = set(table[eval_id][a]) | set(table[eval_id][b])
            first = min((x.split(":")[0] for x in found), key=order.index) if found else None
            expected.append((eval_id, a, b, tuple(sorted(x for x in found if x.split(":")[0] == first))))
            requests.append(GradeRequest(eval=ev, files=files))
    results = grade(h.project, requests, suite=h.suite)
    same = 0
    for (eval_id, a, b, want), r in zip(expected, results):
        got = signature(r, h.suite.kind.failure_signature)
        same += got == want
        if got != want:
            print(f"{eval_id:35} {a} + {b}: graded {' '.join(got) or 'PASS'}; modelled {' '.join(want)}")
    print(f"{same}/{len(expected)} pairs graded as the design lab models them")


if __name__ == "__main__":
    main()
