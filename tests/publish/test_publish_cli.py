"""`tuner publish`: files, manifest, changelog, the held-out gate and --force."""

import json

import pytest

from tuner.publish import next_version, read_manifest

pytestmark = [pytest.mark.node, pytest.mark.slow]


def test_publish_then_gate_refuses_regression(cli, live_project):
    out = live_project / "guidelines" / "published" / "convex_rules"
    r = cli("publish", "--from", "all-active", "--samples", "1", "--json")
    assert r.exit_code == 0, r.output
    m = read_manifest(out / "manifest.json")
    assert m.version == "1.0.0" and not m.gate["forced"] and m.gate["against"] == "no guidelines"
    # One sample per eval cannot show non-inferiority: the gate says so instead of "passed".
    assert m.gate["status"] in ("passed", "not enough evidence") and m.gate["passed"] == (m.gate["status"] == "passed")
    assert (out / "history" / "1.0.0.prompt.md").is_file()
    assert {p.name for p in out.iterdir()} >= {
        "convex_rules.md",
        "convex_rules.mdc",
        "AGENTS.md",
        "CHANGELOG.md",
        "manifest.json",
        "history",
    }
    assert (out / "convex_rules.mdc").read_text().startswith("---\ndescription:")
    assert m.rules and all(r.hash.startswith("sha256:") for r in m.rules)
    assert {row["category"] for row in m.evidence} >= {"actions", "queries"}

    same = cli("publish", "--from", "all-active", "--samples", "1", "--json")
    assert same.exit_code == 0 and json.loads(same.stdout)["unchanged"] is True

    before = sorted(p.name for p in out.rglob("*"))
    refused = cli("publish", "--from", "none", "--samples", "4")
    assert refused.exit_code == 1 and "refusing to publish" in refused.stderr
    assert sorted(p.name for p in out.rglob("*")) == before  # nothing written

    forced = cli("publish", "--from", "none", "--samples", "4", "--force", "--json")
    assert forced.exit_code == 0, forced.output
    m2 = read_manifest(out / "manifest.json")
    assert m2.version == "2.0.0" and m2.gate["forced"] is True and m2.previous == "1.0.0"
    assert "--force" in (out / "CHANGELOG.md").read_text()
    d = cli("guidelines", "diff", "convex_rules@1.0.0", "convex_rules", "--json")
    assert d.exit_code == 0 and len(json.loads(d.stdout)["removed"]) == len(m.rules)


def test_semver_rules():
    class M:
        version = "1.4.2"

    assert next_version(None, 3, 0, 0) == "1.0.0"
    assert next_version(M, 0, 1, 0) == "2.0.0"
    assert next_version(M, 2, 0, 1) == "1.5.0"
    assert next_version(M, 0, 0, 1) == "1.4.3"
