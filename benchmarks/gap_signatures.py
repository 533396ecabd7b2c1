"""Which grader signature each simulated mistake produces (issue 29, ``--modes signature`` of the
design lab): every planted gap and side effect of a profile, applied alone to each tuning eval's
reference answer of the categories asked, graded by the suite's real grader (Node: bundle, tsc,
eslint, vitest) and read as ``tuner.grading.signature.signature`` reads a stored grade.

Writes ``benchmarks/data/gap_signatures.json``: {eval id: {mistake id: signature}} (a mistake that
does not change an eval's answer is left out; one that still passes has the empty signature).
The design lab reads it; re-run this when the sim data or the grader changes.

Run: .venv/bin/python benchmarks/gap_signatures.py --profile careful --categories actions
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
    start = time.perf_counter()
    results = grade(h.project, requests, suite=h.suite)
    out = json.loads(OUT.read_text()) if OUT.exists() else {}
    for (eval_id, mistake), r in zip(labels, results):
        if r.infra_error:
            print(f"infra error on {eval_id} {mistake}: {r.infra_error}")
            continue
        sig = list(signature(r))
        if mistake == "reference":
            assert not sig, f"{eval_id}: the reference answer fails: {sig}"
            continue
        out.setdefault(eval_id, {})[mistake] = sig
        print(f"{eval_id:45} {mistake:45} {' '.join(sig) or 'PASS'}")
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(requests)} answers graded in {time.perf_counter() - start:.0f} s -> {OUT}")


if __name__ == "__main__":
    main()
