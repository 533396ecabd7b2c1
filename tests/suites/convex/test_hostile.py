"""Hostile model outputs (tests/fixtures/hostile): graded in one batch, each must be contained.

For every case: not passed, a model failure at the expected step (never an infrastructure error)
whose detail has the expected reason; and the machine is as it was: no new process, no listening
socket, no file outside the grading folder, the toolchain and the repository untouched, no secret
in any step detail.

A case folder holds a ``hostile.toml``::

    eval = "005-actions/001-hash-text"   # the eval it answers
    expected_step = "tests"              # the first step that must fail
    reason = "timed out after"           # a substring of that step's detail
    why = "..."                          # what the output tries

and the files it changes (laid over the eval's reference answer), or a whole
output as a ``[files]`` table; ``[[generate]]`` entries add big outputs (``path`` + ``bytes``, or a
``path`` with ``{}`` + ``count``); a ``[symlinks]`` table (path = target) makes
symlinks, since not every checkout keeps them. ``__PORT__`` / ``__LISTEN_PORT__`` in a file are replaced by a
port the test listens on / a free port, ``__ROOT__`` by the repository's path.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import tomllib
from pathlib import Path

import pytest

from convexkit import ROOT
from tuner.evals import load_suite
from tuner.grading import GradeRequest, read_output_dir, sandbox
from tuner.suites import grade
from tuner.suites.convex import STEP_NAMES
from tuner.suites.convex.toolchain import ensure_toolchain

pytestmark = pytest.mark.node

HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
FAKE_KEY = "sk-hostile-canary-8c1f0e2d"
FAKE_SSH = "FAKE-SSH-KEY-CANARY-5b7a"
TOOLCHAIN = ROOT / "evals" / "toolchain"
VICTIM = "001-fundamentals/001-hello-query"
WATCHED = [TOOLCHAIN / "node_modules" / p / "package.json" for p in ("convex-test", "vitest", "convex")]


def hostile_cases() -> list[Path]:
    return sorted(p.parent for p in HOSTILE.glob("*/hostile.toml"))


def hostile_request(project, case: Path, ports: dict[str, int]) -> tuple[GradeRequest, dict]:
    spec = tomllib.loads((case / "hostile.toml").read_text())
    ev = load_suite(project).get(spec["eval"])
    if "files" in spec:
        files, symlinks = dict(spec["files"]), []
    else:
        changed, symlinks = _read_case(case, spec.get("symlinks", {}))
        files = {**ev.answer_files(), **changed}
    for gen in spec.get("generate", []):
        if "count" in gen:
            files.update({gen["path"].format(i): f"export const n{i} = {i};\n" for i in range(gen["count"])})
        else:
            files[gen["path"]] = "// x\n" * (gen["bytes"] // 5 + 1)
    for name, port in ports.items():
        files = {p: t.replace(f"__{name}__", str(port)) for p, t in files.items()}
    return GradeRequest(eval=ev, files=files, symlinks=symlinks), spec


def _read_case(case: Path, links: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The case's files as the grader reads an output folder, with its ``[symlinks]`` made real."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / case.name
        shutil.copytree(case, copy, symlinks=True)
        for rel, target in links.items():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).symlink_to(target)
        changed, symlinks = read_output_dir(copy, ("convex", "src"))
    assert sorted(links) == sorted(set(symlinks) & set(links)), symlinks
    return changed, symlinks


# ---- the machine's state -------------------------------------------------------------------


def _processes() -> dict[int, tuple[int, str, str]]:
    """pid -> (uid, cmdline, cwd) of every process we can see."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            uid = os.stat(f"/proc/{pid}").st_uid
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            try:
                cwd = os.readlink(f"/proc/{pid}/cwd")
            except OSError:
                cwd = ""
        except OSError:
            continue
        found[int(pid)] = (uid, cmd, cwd)
    return found


def _ours(before: dict, after: dict, jail_tmp: str) -> dict:
    """New processes that come from grading: the hostile outputs' commands, a working directory in
    this batch's grading folders, or the jail's user anywhere but another batch's grading folder
    (graders of other processes on a busy machine are not ours) or a vanished process."""
    new = {pid: info for pid, info in after.items() if pid not in before}

    def ours(uid: int, cmd: str, cwd: str) -> bool:
        if "sleep 300" in cmd or "f|f" in cmd or jail_tmp in cwd:
            return True
        return uid == sandbox.NOBODY and bool(cwd) and "/tuner-grade-" not in cwd

    return {pid: info for pid, info in new.items() if ours(*info)}


def _listeners() -> set[tuple[str, int]]:
    """(local address, uid) of every listening TCP socket of the host's network namespace."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A":
                found.add((fields[1], int(fields[7])))
    return found


def _canaries() -> set[str]:
    """Files a hostile output tries to create outside the grading folder."""
    places = [
        Path("/tmp"),
        Path("/var/tmp"),
        Path("/etc"),
        Path.home(),
        Path("/root"),
        TOOLCHAIN,
        TOOLCHAIN / "node_modules",
        TOOLCHAIN / "node_modules" / "convex",
        ROOT,
    ]
    return {str(p) for place in places for p in place.glob("tuner-hostile-*")}


def _digests() -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in WATCHED}


def _git_status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--ignored=no"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def _snapshot() -> dict:
    return {
        "processes": _processes(),
        "listeners": _listeners(),
        "canaries": _canaries(),
        "digests": _digests(),
        "git": _git_status(),
    }


class _Listener:
    """A TCP listener on 127.0.0.1 counting the connections it receives."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.sock.settimeout(0.2)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def hostile(project, tmp_path_factory):
    """Every hostile case and the victims, graded in one batch: the reference answers of
    ``005-actions/001-hash-text`` and ``001-fundamentals/001-hello-query`` (controls, which must
    pass) and a wrong answer of the latter (which must fail whatever its neighbours do)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    import tuner.suites.convex.pipeline as pipeline

    fake_home = tmp_path_factory.mktemp("fake-home")
    (fake_home / ".ssh").mkdir()
    (fake_home / ".ssh" / "id_rsa").write_text(FAKE_SSH + "\n")
    jail_tmp = Path(tempfile.mkdtemp(prefix="tuner-jailtest-"))
    jail_tmp.chmod(0o755)  # the jail's user (nobody, when root runs the tests) must reach it
    mp = pytest.MonkeyPatch()
    mp.setenv("OPENAI_API_KEY", FAKE_KEY)
    mp.setenv("HOME", str(fake_home))
    mp.setattr(tempfile, "tempdir", str(jail_tmp))  # the grading folders of this batch
    mp.setattr(pipeline, "STALL_S", 8.0)
    mp.setattr(pipeline, "BUNDLE_STALL_S", 8.0)
    mp.setattr(pipeline, "ISOLATED_TIMEOUT_S", 60.0)
    listener = _Listener()
    ports = {"PORT": listener.port, "LISTEN_PORT": _free_port(), "ROOT": str(ROOT)}
    cases = hostile_cases()
    requests = [hostile_request(project, case, ports)[0] for case in cases]
    suite = load_suite(project)
    control = suite.get("005-actions/001-hash-text")
    requests.append(GradeRequest(eval=control, files=control.answer_files()))
    victim = suite.get(VICTIM)
    requests.append(GradeRequest(eval=victim, files=victim.answer_files()))
    requests.append(GradeRequest(eval=victim, files=_wrong_answer(victim)))
    # Installed before the snapshot: on a fresh clone the first grading would install it, and
    # the new toolchain files must not count as something the hostile outputs wrote.
    ensure_toolchain(TOOLCHAIN)
    try:
        before = _snapshot()
        start = time.monotonic()
        results = grade(project, requests, suite=load_suite(project), use_cache=False, timeout_s=120)
        seconds = time.monotonic() - start
        time.sleep(1.0)  # a detached child that escaped would still be starting
        # The kernel tears a jail's pid namespace down asynchronously (a fork bomb's hundreds of
        # processes on a loaded machine): allow it a few seconds, then look.
        for _ in range(40):
            if not _ours(before["processes"], _processes(), str(jail_tmp)):
                break
            time.sleep(0.25)
        after = _snapshot()
        leftovers = sorted(str(p) for p in jail_tmp.iterdir())
    finally:
        listener.close()
        mp.undo()
        shutil.rmtree(jail_tmp, ignore_errors=True)
    named = dict(zip([c.name for c in cases] + ["control", "victim", "wrong-victim"], results))
    print(f"\nhostile batch: {len(requests)} outputs graded in {seconds:.1f}s")
    for name, r in named.items():  # shown with -s
        step = r.failed_step
        print(f"  {name:26} {step or 'passed':10} {(r.step(step).detail if step else '').splitlines()[:1]}"[:300])
    return {
        "results": named,
        "before": before,
        "after": after,
        "accepted": listener.accepted,
        "ports": ports,
        "jail_tmp": str(jail_tmp),
        "leftovers": leftovers,
    }


def _wrong_answer(ev) -> dict[str, str]:
    """The reference answer listing messages newest first: one grader test must fail."""
    files = dict(ev.answer_files())
    assert '.order("asc")' in files["convex/messages.ts"]
    files["convex/messages.ts"] = files["convex/messages.ts"].replace('.order("asc")', '.order("desc")')
    return files


def _query_in_use_node_file(ev) -> dict[str, str]:
    """The reference answer with a query in its "use node" file: Convex refuses it on deploy."""
    files = dict(ev.answer_files())
    text = files["convex/hashing.ts"]
    assert 'import { action } from "./_generated/server";' in text
    files["convex/hashing.ts"] = text.replace(
        'import { action } from "./_generated/server";', 'import { action, query } from "./_generated/server";'
    ) + ('\nexport const ping = query({ args: {}, returns: v.string(), handler: async () => "pong" });\n')
    return files


def test_the_corpus_is_big_enough():
    assert len(hostile_cases()) >= 12


@pytest.mark.parametrize("case", hostile_cases(), ids=lambda p: p.name)
def test_hostile_output_is_a_model_failure_with_a_reason(hostile, case: Path):
    spec = tomllib.loads((case / "hostile.toml").read_text())
    result = hostile["results"][case.name]
    steps = {s.name: s for s in result.steps}
    step = spec["expected_step"]
    index = STEP_NAMES.index(step)
    assert not result.passed
    assert result.infra_error is None, result.infra_error
    assert [steps[n].status for n in STEP_NAMES[:index]] == ["pass"] * index, result.steps
    assert steps[step].status == "fail", result.steps
    assert spec["reason"] in steps[step].detail, steps[step].detail
    assert all(steps[n].status == "skip" for n in STEP_NAMES[index + 1 :])


def test_the_reference_answer_passes_in_the_same_batch(hostile):
    control = hostile["results"]["control"]
    assert control.passed, control.steps
    assert control.tests_passed == control.tests_total > 0


def test_a_hostile_neighbour_changes_no_other_verdict(hostile):
    """Answers that patch Array.prototype.map or extend vitest's expect when imported share the
    batch with the same eval's reference answer and a wrong answer: each keeps its own verdict
    (batched in one unisolated worker, the patch failed the reference and the extension passed
    the wrong answer and the stub itself)."""
    victim, wrong = hostile["results"]["victim"], hostile["results"]["wrong-victim"]
    assert victim.passed, victim.steps
    assert victim.tests_passed == victim.tests_total == 4
    assert not wrong.passed and wrong.failed_step == "tests" and wrong.infra_error is None
    assert wrong.tests_passed == 3 and "oldest first" in wrong.step("tests").detail
    stub = hostile["results"]["expect-extend"]
    assert not stub.passed and stub.tests_passed == 0, stub.steps


def test_a_module_imported_at_the_bundle_step_changes_no_other_verdict(project):
    """patch-bundle-check replaces Object.entries when its "use node" module is imported; in the
    same bundle batch (nothing in it stalls, so nobody is re-run alone) a neighbour's query in a
    "use node" file is still found: each project's modules are imported in a process of their
    own (in one shared process the neighbour passed every step)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    control = load_suite(project).get("005-actions/001-hash-text")
    patcher = hostile_request(project, HOSTILE / "patch-bundle-check", {})[0]
    requests = [
        patcher,
        GradeRequest(eval=control, files=_query_in_use_node_file(control)),
        GradeRequest(eval=control, files=control.answer_files()),
    ]
    patched, victim, reference = grade(project, requests, suite=load_suite(project), use_cache=False, timeout_s=120)
    assert patched.failed_step == "tests", patched.steps
    assert victim.failed_step == "bundle" and victim.infra_error is None, victim.steps
    assert "`ping` is a query" in victim.step("bundle").detail
    assert reference.passed, reference.steps


def test_no_secret_reaches_any_step_detail(hostile):
    details = "\n".join(s.detail for r in hostile["results"].values() for s in r.steps)
    assert FAKE_KEY not in details and "OPENAI_API_KEY" not in details
    assert FAKE_SSH not in details
    assert "root:" not in details  # /etc/shadow
    secrets = hostile["results"]["secrets"].step("tests").detail
    assert "/etc/shadow" in secrets and "EACCES" in secrets  # it tried, and was refused


def test_no_step_detail_holds_a_host_path_outside_the_grading_folder(hostile):
    # From a checkout under /tmp too (a CI clone): the jail shows the toolchain's parent folders in
    # its /tmp, and the details hide them (tests/suites/convex/test_host_paths.py).
    for name, result in hostile["results"].items():
        for step in result.steps:
            for path in (str(ROOT), hostile["jail_tmp"], "/tuner-grade-"):
                assert path not in step.detail, (name, step.name, path, step.detail)


def test_no_process_is_left_behind(hostile):
    assert not _ours(hostile["before"]["processes"], hostile["after"]["processes"], hostile["jail_tmp"])


def test_no_listening_socket_is_left_and_no_connection_got_out(hostile):
    new = hostile["after"]["listeners"] - hostile["before"]["listeners"]
    port = f":{hostile['ports']['LISTEN_PORT']:04X}"
    assert not [addr for addr, uid in new if addr.endswith(port) or uid == sandbox.NOBODY], new
    assert hostile["accepted"] == 0, "a hostile output reached a listener on 127.0.0.1"


def test_no_file_is_created_or_changed_outside_the_grading_folder(hostile):
    before, after = hostile["before"], hostile["after"]
    assert after["canaries"] == before["canaries"], after["canaries"] - before["canaries"]
    assert after["digests"] == before["digests"]
    assert after["git"] == before["git"]
    assert hostile["leftovers"] == []  # the grading folders were removed too


def _importing_a_neighbour(ev, how: str) -> dict[str, str]:
    """The reference answer importing from the batch's first folder (``p000``) by a relative path
    out of its own: a value it uses (``value``) or a type only (``type``, dropped by esbuild)."""
    files = dict(ev.answer_files())
    text = files["convex/messages.ts"]
    if how == "value":
        text = 'import { ORDER } from "../../p000/convex/shared";\n' + text.replace('.order("asc")', ".order(ORDER)")
    else:
        text = 'import type { Message } from "../../p000/convex/shared";\n' + text.replace(
            "handler: async (ctx, args) => {",
            "handler: async (ctx, args) => {\n"
            "    const checked: Message = { author: args.author, body: args.body };\n"
            "    void checked;",
            1,
        )
    assert text != files["convex/messages.ts"]
    files["convex/messages.ts"] = text
    return files


def test_an_answer_importing_a_neighbours_file_gets_the_same_verdict_alone_and_beside_it(project):
    """An answer's verdict never depends on its neighbours' files: one that imports a value or a
    type from ``../../p000/convex/shared`` fails the same way graded without that file in the
    batch and right after a correct answer that has it (before the fix, both passed there: esbuild
    and tsc resolved the import into the neighbour's folder)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    ev = load_suite(project).get(VICTIM)
    neighbour = {
        **ev.answer_files(),
        "convex/shared.ts": (
            'export type Message = { author: string; body: string };\nexport const ORDER = "asc" as const;\n'
        ),
    }
    thieves = [GradeRequest(eval=ev, files=_importing_a_neighbour(ev, how)) for how in ("value", "type")]
    # Alone: neither thief has convex/shared.ts, so whatever p000 is, the import finds nothing.
    alone = grade(project, thieves, suite=load_suite(project), use_cache=False, timeout_s=120)
    beside = grade(
        project,
        [GradeRequest(eval=ev, files=neighbour), *thieves],
        suite=load_suite(project),
        use_cache=False,
        timeout_s=120,
    )
    assert beside[0].passed, beside[0].steps
    for how, a, b in zip(("value", "type"), alone, beside[1:]):
        verdicts = [(r.passed, r.failed_step, r.step(r.failed_step).detail if r.failed_step else "") for r in (a, b)]
        assert verdicts[0] == verdicts[1], (how, verdicts)
        assert b.failed_step == "bundle" and b.infra_error is None, (how, b.steps)
        assert "outside this answer" in b.step("bundle").detail, (how, b.step("bundle").detail)
