"""Links inside rendered reports: run ids to run pages, eval ids to their evals, flips to the
side-by-side page of the two runs that flipped.

Reports are Markdown written for files and terminals; they name runs by short hex ids and evals by
path. The viewer turns those names into links after rendering, touching text only (never a tag,
an attribute, or text already inside a link or a code block).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from urllib.parse import quote

from markupsafe import Markup, escape

__all__ = ["link_report", "compare_pairs", "link_flips", "session_href", "markdown"]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _own_link(url: str) -> bool:
    """A link or image inside the viewer (a relative path, an anchor): no scheme, no other host.
    markdown-it asks after normalising (percent-encoding), so a backslash or a control character
    cannot disguise a host or a scheme."""
    url = url.strip()
    return not _SCHEME.match(url) and not url.startswith("//")


def markdown():
    """The renderer of reports in the viewer: CommonMark with tables, raw HTML shown as text, and
    links and images only to the viewer's own pages and files. A report can quote model output and
    analyst text; anything else (a remote image that would load when the page opens, a link out)
    is left as the text that was written."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.validateLink = _own_link
    return md


def session_href(key: str) -> str:
    """The page of a recorded generation (a run's result or a design point whose answer a run holds)."""
    return f"/sessions/{quote(key, safe=':')}"


_TAG = re.compile(r"(<[^>]+>)")
_HEX = re.compile(r"(?<![0-9A-Za-z:/_-])(sha256:[0-9a-f]{64}|[0-9a-f]{8,64})(?![0-9A-Za-z/_-])")


def link_report(
    html: str,
    *,
    resolve_runs: Callable[[Iterable[str]], dict[str, str]],
    eval_ids: Iterable[str],
    run_of_report: str | None = None,
    rule_ids: Iterable[str] = (),
) -> str:
    """``html`` with run ids and eval ids turned into links.

    ``resolve_runs`` maps hex prefixes to full run ids (only the unambiguous, existing ones);
    ``run_of_report`` is the run an analysis is about, so its evals link to that run's eval pages.
    """
    parts = _TAG.split(html)
    candidates = {m.group(1) for i, part in enumerate(parts) if i % 2 == 0 for m in _HEX.finditer(part)}
    runs = resolve_runs(candidates) if candidates else {}
    evals = sorted(set(eval_ids), key=len, reverse=True)
    rules = sorted(set(rule_ids), key=len, reverse=True)
    rule_re = (
        re.compile("(?<![0-9A-Za-z/_.-])(" + "|".join(re.escape(r) for r in rules) + ")(?![0-9A-Za-z/_-])")
        if rules
        else None
    )
    eval_re = (
        re.compile("(?<![0-9A-Za-z/_.-])(" + "|".join(re.escape(e) for e in evals) + ")(?![0-9A-Za-z/_-])")
        if evals
        else None
    )
    out, skip = [], 0  # depth inside <a> or <pre>, whose text is left as it is
    for i, part in enumerate(parts):
        if i % 2 == 1:
            name = part[1:].split(None, 1)[0].rstrip(">").lower() if len(part) > 2 else ""
            if name in ("a", "pre"):
                skip += 1
            elif name in ("/a", "/pre"):
                skip = max(0, skip - 1)
            out.append(part)
            continue
        if skip or not part.strip():
            out.append(part)
            continue
        out.append(_link_text(part, runs, eval_re, run_of_report, rule_re))
    return "".join(out)


def _link_text(text: str, runs: dict[str, str], eval_re, run: str | None, rule_re=None) -> str:
    def run_link(m: re.Match) -> str:
        full = runs.get(m.group(1))
        return f'<a class="run-link mono" href="/runs/{full}">{m.group(1)}</a>' if full else m.group(0)

    text = _HEX.sub(run_link, text)
    if rule_re is not None and "<a " not in text:
        text = rule_re.sub(lambda m: f'<a class="rule-link" href="/rule/{m.group(1)}">{m.group(1)}</a>', text)
    if eval_re is None or "rule-link" in text:
        return text

    def eval_link(m: re.Match) -> str:
        ev = m.group(1)
        href = f"/runs/{run}/evals/{ev}" if run else f"/evals?ready=all&eval={quote(ev, safe='')}"
        return f'<a class="eval-link" href="{escape(href)}">{ev}</a>'

    # Eval links go only in the text between the run links just made.
    pieces = re.split(r'(<a class="run-link[^>]*>[^<]*</a>)', text)
    return "".join(p if p.startswith("<a ") else eval_re.sub(eval_link, p) for p in pieces)


_SIDE = re.compile(r"^- \*\*(before|after)\*\*")
_SIDE_RUN = re.compile(r"^\s+- (.+?): run `([0-9a-f]{8,64})`")


def compare_pairs(markdown: str) -> dict[str, tuple[str, str]]:
    """{model label: (before run prefix, after run prefix)} from a compare report's header."""
    side, found = None, {"before": {}, "after": {}}
    for line in markdown.splitlines():
        m = _SIDE.match(line)
        if m:
            side = m.group(1)
            continue
        m = _SIDE_RUN.match(line)
        if m and side:
            found[side][m.group(1)] = m.group(2)
        elif line.startswith("## "):
            break
    return {label: (b, found["after"][label]) for label, b in found["before"].items() if label in found["after"]}


def link_flips(html: str, pairs: dict[str, tuple[str, str]]) -> str:
    """In a compare report's flips table, each eval links to the side-by-side page of its model's runs
    (``pairs``: {model label: (before run id, after run id)}, full ids)."""

    def row(m: re.Match) -> str:
        label = m.group(2)
        pair = pairs.get(str(Markup(label).unescape()))
        if pair is None:
            return m.group(0)
        ev = m.group(4)
        href = escape(f"/compare/{pair[0]}/{pair[1]}#{ev}")
        return f'{m.group(1)}{label}{m.group(3)}<a class="flip-link" href="{href}"><code>{ev}</code></a>{m.group(5)}'

    return re.sub(r"(<tr>\s*<td>)([^<]+)(</td>\s*<td>)<code>([^<]+)</code>(</td>)", row, html)
