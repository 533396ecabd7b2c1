"""Step details never name where the batch or the toolchain lives on the host (results outlive both)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tuner.suites.convex.pipeline import _host_paths, _scrub


def _workspace(toolchain: Path, root: Path) -> SimpleNamespace:
    return SimpleNamespace(toolchain=SimpleNamespace(dir=toolchain), root=root)


def test_a_checkout_under_tmp_is_hidden_where_the_jail_shows_the_toolchains_parents():
    # What the hostile `secrets` answer printed from a CI clone in /tmp: a listing of the jail's /tmp,
    # where bubblewrap made the toolchain's parent folders to mount it.
    ws = _workspace(Path("/tmp/ci-clone/evals/toolchain"), Path("/tmp/tuner-grade-abc/batch"))
    listing = ("/tmp/ci-clone,/tmp/ci-clone/evals,/tmp/ci-clone/evals/toolchain/node_modules/x.js,"
               "/tmp/tuner-grade-abc,/tmp/tuner-grade-abc/batch/p0/convex/a.ts")
    shown = _scrub(listing, _host_paths(ws))
    assert "ci-clone" not in shown and "tuner-grade-abc" not in shown, shown
    assert shown == ("<toolchain>/../..,<toolchain>/..,<toolchain>/node_modules/x.js,"
                     "<tmp>,p0/convex/a.ts")


def test_paths_an_answer_writes_itself_stay_readable():
    ws = _workspace(Path("/work/proj/evals/toolchain"), Path("/tmp/tuner-grade-abc/batch"))
    # The system temp folder and top-level folders are not the toolchain's to hide.
    assert _scrub("open /tmp/x.ts; see /work/notes", _host_paths(ws)) == "open /tmp/x.ts; see /work/notes"
