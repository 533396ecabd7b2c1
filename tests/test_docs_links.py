"""Every relative link in README.md and docs/*.md points to a file that exists, and to a heading of
it when the link names one (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_FENCE = re.compile(r"^(```|~~~).*?^\1", flags=re.M | re.S)
_CODE = re.compile(r"`+[^`\n]*`+")
_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _prose(text: str) -> str:
    """The text with code blocks and code spans removed (a `#` or `[x](y)` there is not Markdown)."""
    return _CODE.sub("", _FENCE.sub("", text))


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``path`` (a repeated heading gets -1, -2, ...)."""
    found: set[str] = set()
    for line in _FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        name, n = slug, 0
        while name in found:
            n += 1
            name = f"{slug}-{n}"
        found.add(name)
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of ``path`` that points nowhere, as ``file: target (why)``."""
    bad = []
    for target in _LINK.findall(_prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not ours to check offline
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            bad.append(f"{path.relative_to(root)}: {target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{path.relative_to(root)}: {target} (no such heading)")
    return bad


def test_every_relative_link_resolves():
    assert [p.name for p in pages()][:1] == ["README.md"] and len(pages()) > 5
    bad = [b for p in pages() for b in broken_links(p)]
    assert not bad, "\n".join(bad)


def test_the_readme_links_every_docs_page():
    linked = {Path(t.partition("#")[0]).name for t in _LINK.findall(_prose((ROOT / "README.md").read_text()))}
    missing = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p.name not in linked]
    assert not missing, f"docs pages the README does not link: {missing}"


def test_a_broken_link_or_anchor_is_caught(tmp_path):
    (tmp_path / "b.md").write_text("# Some Title (`x/*`)\n\n## Again\n\n## Again\n")
    page = tmp_path / "a.md"
    page.write_text(
        "[ok](b.md) [ok](b.md#some-title-x) [ok](b.md#again-1) [web](https://example.com/x.md)\n"
        "`[in code](nowhere.md)`\n```\n[in a block](nowhere.md)\n```\n"
        "[gone](missing.md) [bad anchor](b.md#nothing) [self](#nothing-here)\n"
    )
    bad = broken_links(page, root=tmp_path)
    assert bad == [
        "a.md: missing.md (no such file)",
        "a.md: b.md#nothing (no such heading)",
        "a.md: #nothing-here (no such heading)",
    ]
