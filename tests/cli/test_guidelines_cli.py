import json


def test_render_prints_prompt_and_hash(cli, project_dir):
    r = cli("guidelines", "render", "all-active", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["hash"].startswith("sha256:") and data["text"].startswith("# Convex guidelines")
    r2 = cli("guidelines", "render", "all-active")
    assert r2.stdout == data["text"]


def test_render_to_file(cli, project_dir):
    out = project_dir / "prompt.md"
    r = cli("guidelines", "render", "terse", "-o", str(out))
    assert r.exit_code == 0 and out.read_text().startswith("# Convex guidelines")


def test_list_show_validate_diff(cli, project_dir):
    r = cli("guidelines", "list", "--json", "--status", "candidate")
    assert r.exit_code == 0 and {x["status"] for x in json.loads(r.stdout)} == {"candidate"}
    r = cli("guidelines", "show", "actions.storage-blobs", "--variant", "terse")
    assert r.exit_code == 0 and "takes a Blob" in r.stdout
    r = cli("guidelines", "validate")
    assert r.exit_code == 0 and "rules" in r.stdout
    r = cli("guidelines", "diff", "none", "all-active", "--json")
    assert r.exit_code == 0 and len(json.loads(r.stdout)["added"]) >= 12


def test_bad_input_exits_2_with_one_line(cli, project_dir):
    bad = project_dir / "guidelines" / "rules" / "oops.md"
    bad.write_text("---\nid: x.y\ntitle: t\nsection: [A]\ntargets: [queries]\nstatus: active\ncolour: red\n---\nbody\n")
    before = sorted(p.name for p in project_dir.rglob("*"))
    r = cli("guidelines", "validate")
    assert r.exit_code == 2
    assert r.stderr.strip() == "tuner: error: rules/oops.md: field 'colour': unknown key"
    assert sorted(p.name for p in project_dir.rglob("*")) == before  # nothing written
    bad.unlink()
    for args in (
        ("guidelines", "show", "no.rule"),
        ("guidelines", "render", "no-set"),
        ("guidelines", "diff", "none", "nah"),
    ):
        r = cli(*args)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, (args, r.stderr)


def test_version(cli):
    r = cli("--version")
    assert r.exit_code == 0 and r.stdout.startswith("tuner ")
