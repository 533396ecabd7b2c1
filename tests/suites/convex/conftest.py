"""One batched grading shared by the pipeline tests: the counter variants (tests/suites/convex),
every reference answer of the suite and every broken output (tests/fixtures/broken)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from convexkit import BROKEN, ROOT, broken_cases
from counter_variants import counter_eval
import counter_variants as variants
from tuner.evals import load_suite
from tuner.grading import GradeRequest, GradeResult
from tuner.paths import Project
from tuner.suites import grade

VARIANTS = ["answer", "node_builtin_without_use_node", "query_in_use_node_file", "use_node_action",
            "type_error", "filter_in_query", "wrong_behaviour", "syntax_error", "use_node_in_crons", "hanging_query"]


@pytest.fixture(scope="session")
def grading_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("grading-cache")


@pytest.fixture(scope="session")
def project(grading_cache: Path) -> Project:
    """The real project (its suite and toolchain) with a throw-away grading cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TUNER_CACHE_DIR", str(grading_cache))
    yield Project(ROOT)
    mp.undo()


@pytest.fixture(scope="session")
def batch(project: Project, broken_variant) -> dict[str, GradeResult]:
    """Everything graded in one call; keys: ``variant:<name>``, ``answer:<eval id>``,
    ``alternative:<eval id>/<name>``, ``broken:<path>``."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    import tuner.suites.convex.pipeline as pipeline

    mp = pytest.MonkeyPatch()
    mp.setattr(pipeline, "STALL_S", 8.0)  # the hanging variant costs about twice this
    mp.setattr(pipeline, "BUNDLE_STALL_S", 8.0)
    keys, requests = [], []
    ev = counter_eval()
    for name in VARIANTS:
        keys.append(f"variant:{name}")
        requests.append(GradeRequest(eval=ev, files=getattr(variants, name)()))
    suite = load_suite(project)
    for e in suite.evals:
        keys.append(f"answer:{e.id}")
        requests.append(GradeRequest(eval=e, files=e.answer_files()))
        for name, files in e.alternatives().items():
            keys.append(f"alternative:{e.id}/{name}")
            requests.append(GradeRequest(eval=e, files=files))
    for case in broken_cases():
        try:  # a malformed case fails its own test (which loads it again), not the whole batch
            request = broken_variant(suite, case)[0]
        except Exception:
            continue
        keys.append(f"broken:{case.parent.relative_to(BROKEN)}")
        requests.append(request)
    try:
        results = grade(project, requests, suite=suite, use_cache=True, timeout_s=300)
    finally:
        mp.undo()
    return dict(zip(keys, results))
