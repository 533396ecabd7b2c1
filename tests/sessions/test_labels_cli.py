"""`tuner label`, `tuner sessions`, `tuner export` and `tuner keys` end to end on the recorded
store; labels survive re-grading and re-recording."""

from __future__ import annotations

import json

from sessionkit import invoke


def _sessions(*args: str) -> list[dict]:
    r = invoke("sessions", "list", "--json", "--limit", "1000", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["sessions"]


def test_sessions_list_filters_and_pages(env):
    every = _sessions()
    assert len(every) == 32 and len({s["key"] for s in every}) == 32
    assert all(s["eval_status"] == "needs_review" and not s["eval_ready"] for s in every)
    assert {s["model"] for s in _sessions("--model", "sim/careful")} == {"sim/careful"}
    assert {s["category"] for s in _sessions("--category", "data")} == {"data"}
    fails = _sessions("--outcome", "fail")
    assert fails and all(s["outcome"] == "fail" for s in fails)
    r = invoke("sessions", "list", "--json", "--limit", "5", "--offset", "30")
    page = json.loads(r.stdout)
    assert [s["key"] for s in page["sessions"]] == [s["key"] for s in every[30:]] and not page["has_more"]


def test_label_one_and_many_then_filter_by_status_and_tag(env):
    one = _sessions("--model", "sim/careful")[0]
    r = invoke(
        "label",
        one["key"][7:19],
        "--status",
        "golden",
        "--tag",
        "keep",
        "--notes",
        "clean answer",
        "--expected-output",
        "EXPECTED",
    )
    assert r.exit_code == 0, r.output
    [s] = _sessions("--status", "golden")
    assert s["key"] == one["key"] and s["eval_ready"] and s["eval_tags"] == ["keep"]
    assert s["eval_notes"] == "clean answer" and s["expected_output"] == "EXPECTED" and s["reviewed_at"]
    run = env.runs[0].id
    r = invoke("label", "--run", run[7:19], "--outcome", "fail", "--status", "incorrect", "--tag", "regress", "--json")
    assert r.exit_code == 0, r.output
    n = json.loads(r.stdout)["labelled"]
    assert n == len(_sessions("--run", run, "--outcome", "fail")) and n == len(_sessions("--tag", "regress"))
    # Filter by current status: every incorrect one becomes needs_review again, and not ready.
    r = invoke("label", "--where-status", "incorrect", "--status", "needs_review", "--not-ready", "--untag", "regress")
    assert r.exit_code == 0 and not _sessions("--tag", "regress") and len(_sessions("--ready")) == 1


def test_label_refuses_bad_input_with_one_line_and_writes_nothing(env):
    key = _sessions()[0]["key"]
    cases = [
        (
            ["label", key, "--status", "great"],
            "status 'great': must be one of golden, correct, incorrect, needs_review",
        ),
        (["label", "--status", "golden"], "say which sessions"),
        (["label", key], "nothing to change"),
        (["label", "deadbeefdead", "--status", "golden"], "unknown session 'deadbeefdead'"),
        (["label", key, "--tag", "two words"], "tag 'two words'"),
        (["label", "--outcome", "maybe", "--status", "golden"], "outcome 'maybe': must be one of pass, fail, infra"),
        (["export", "--format", "xml"], "format 'xml': must be one of deepeval, openai, text"),
        (["export", "--format", "text", "--limit", "0"], "limit 0"),
    ]
    for args, message in cases:
        r = invoke(*args)
        assert r.exit_code == 2, (args, r.output)
        assert message in r.stderr and r.stderr.count("\n") == 1, (args, r.stderr)
    assert not _sessions("--ready")


def test_labels_survive_regrading_and_rerecording(env, store):
    from tuner.store import RunSpec

    run = env.runs[0]
    results = store.results(run.id)
    target = results[0]
    r = invoke("label", target.response_key, "--status", "golden", "--tag", "kept")
    assert r.exit_code == 0, r.output
    # The same run recorded again (a resumed run upserts its rows): the review stays.
    store.record_results(run.id, results)
    # Re-grading: a new grader makes a new run with the same generations (same response keys).
    regraded = store.start_run(
        RunSpec(**{**run.model_dump(include=set(RunSpec.model_fields)), "grader_hash": "sha256:new-grader"})
    )
    assert regraded.id != run.id
    flipped = [
        x.model_copy(update={"outcome": "fail" if x.outcome == "pass" else "pass", "grade_key": "g2"}) for x in results
    ]
    store.record_results(regraded.id, flipped)
    [s] = _sessions("--status", "golden")
    assert s["key"] == target.response_key and s["eval_tags"] == ["kept"]
    assert s["run"] == regraded.id and s["outcome"] != target.outcome  # shown through the newest grade
    assert len(_sessions()) == 32  # one session per generation, not per result row


def test_export_cli_writes_only_with_output(env, tmp_path):
    key = _sessions("--outcome", "pass")[0]["key"]
    assert invoke("label", key, "--status", "correct").exit_code == 0
    before = sorted(p.name for p in env.root.iterdir())
    r = invoke("export", "--format", "openai")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 1 and "exported 1 session as openai" in r.stderr
    assert sorted(p.name for p in env.root.iterdir()) == before
    out = tmp_path / "x" / "golden.jsonl"
    r = invoke("export", "--format", "openai", "--status", "correct", "-o", str(out))
    assert r.exit_code == 0, r.output
    [line] = out.read_text().splitlines()
    assert json.loads(line)["messages"][-1]["role"] == "assistant"
    assert not [p for p in out.parent.iterdir() if p != out]  # no temp file left beside it
    assert invoke("export", "--format", "text", "--status", "golden").stdout == ""


def test_keys_are_shown_once_and_stored_hashed(env):
    from pathlib import Path

    r = invoke("keys", "create", "ci export", "--json")
    assert r.exit_code == 0, r.output
    created = json.loads(r.stdout)
    secret = created["key"]
    assert secret.startswith("tk_") and len(secret) > 40
    listed = invoke("keys", "list", "--json")
    assert secret not in listed.stdout and json.loads(listed.stdout)[0]["id"] == created["id"]
    db = Path(env.url.removeprefix("sqlite:///"))
    stored = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    # the secret part is urlsafe base64, which may itself hold "_": split off the prefix and id only
    secret_part = secret.split("_", 2)[2]
    assert secret.encode() not in stored and secret_part.encode() not in stored
    assert invoke("keys", "revoke", created["id"]).exit_code == 0
    assert not json.loads(invoke("keys", "list", "--json").stdout)[0]["active"]
    r = invoke("keys", "revoke", "ffffffffffff")
    assert r.exit_code == 2 and "unknown key id" in r.stderr
