"""Server-rendered SVG charts for the viewer: intervals (pass rates, forest plots of effects),
a heatmap and an optimisation history.

Hand-written SVG rather than a chart library in the page: nothing external is reachable (no CDN),
the markup is small, and every label is text the browser lays out with its own fonts (no glyph a
font may lack). Every value that reaches the markup is escaped.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

__all__ = [
    "Interval",
    "interval_chart",
    "heatmap",
    "history_chart",
    "verdict_colour",
    "verdict_class",
    "symmetric_range",
    "legend",
    "FINDINGS",
    "OPEN_COLOUR",
]

_FONT = 'font-family="system-ui, sans-serif" font-size="12"'

# Colour means a verdict, never a point estimate: a cell or row is green or red only when its
# recorded verdict is a finding, blue when it was decided to make no meaningful difference, and
# grey (with its interval) while it is open. A fixed design's "no detectable effect" is open too:
# it says the test did not reject, not that the effect is small.
FINDINGS = {"helps": "up", "improved": "up", "hurts": "down", "regressed": "down"}
_SETTLED = {"no meaningful effect", "no meaningful change"}
_FILL = {"up": "#15803d", "down": "#b91c1c", "none": "#bfdbfe", "open": "#e5e7eb"}
_INK = {"up": "#15803d", "down": "#b91c1c", "none": "#2563eb", "open": "#9ca3af"}
OPEN_COLOUR = _FILL["open"]


def verdict_class(verdict: str | None) -> str:
    """up | down | none (decided: no meaningful difference) | open (undecided, not significant, not measured)."""
    if verdict in FINDINGS:
        return FINDINGS[verdict]
    return "none" if verdict in _SETTLED else "open"


def verdict_colour(verdict: str | None) -> str:
    """The colour of a dot or bar for this verdict (a chart's rows)."""
    return _INK[verdict_class(verdict)]


def legend(kind: str = "effect") -> Markup:
    """What the colours mean, as HTML beside a chart (``kind``: effect | change)."""
    words = (
        {
            "up": "helps",
            "down": "hurts",
            "none": "no meaningful effect (decided)",
            "open": "undecided or not significant: no finding, its interval shown",
        }
        if kind == "effect"
        else {
            "up": "improved",
            "down": "regressed",
            "none": "no meaningful change (decided)",
            "open": "undecided or no detectable change: no finding",
        }
    )
    items = "".join(
        f'<span class="key"><span class="swatch" style="background:{_FILL[k]}"></span>{escape(v)}</span>'
        for k, v in words.items()
    )
    return Markup(f'<div class="legend">{items}</div>')


@dataclass
class Interval:
    label: str
    value: float | None
    lo: float | None
    hi: float | None
    note: str = ""  # shown at the right (e.g. "12/20" or the verdict)
    colour: str = "#1d4ed8"
    href: str | None = None


def _x(v: float, lo: float, hi: float, left: int, width: int) -> float:
    return left + (v - lo) / (hi - lo) * width if hi > lo else left


_CHAR_W = 6.8  # average width of a 12px system-ui character, enough to size label columns


def _label_width(labels: list[str], cap: int = 560) -> int:
    return min(cap, max([60, *(int(len(s) * _CHAR_W) + 12 for s in labels)]))


def _fit(label: str, width: int) -> str:
    """``label`` cut to the column (the whole text stays in the row's tooltip)."""
    if int(len(label) * _CHAR_W) + 12 <= width:  # as _label_width sized it: the longest label fits whole
        return label
    most = max(4, int((width - 12) / _CHAR_W))
    return label[: most - 3] + "..."


def _link(element: str, href: str | None) -> str:
    # The link wraps the whole <text> (an <a> inside <text> is not a reliable click target).
    return f'<a class="chart-link" href="{escape(href)}">{element}</a>' if href else element


def symmetric_range(values: list[float | None], step: float = 0.25) -> float:
    """The smallest multiple of ``step`` (at least ``step``, at most 1) covering every value's size."""
    import math

    top = max([abs(v) for v in values if v is not None] or [step])
    return min(1.0, max(step, math.ceil(top / step - 1e-9) * step))


def interval_chart(
    rows: list[Interval],
    *,
    lo: float = 0.0,
    hi: float = 1.0,
    zero: float | None = None,
    percent: bool = True,
    title: str = "",
    chart_id: str = "",
    value_format=None,
) -> Markup:
    """One row per item: a dot at the estimate and a bar over its interval, on a shared axis.

    Used for pass rates per category (0..1) and, with ``zero=0`` and a symmetric range, as a forest
    plot of effects.
    """
    label_w = _label_width([r.label for r in rows])
    plot_w, note_w, row_h, top = 360, 180, 22, 26 if title else 8
    width, height = label_w + plot_w + note_w + 20, top + row_h * len(rows) + 30
    fmt = value_format or (
        (lambda v: f"{v:+.0%}" if zero is not None else f"{v:.0%}") if percent else (lambda v: f"{v:+.2f}")
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" {_FONT}>'
    ]
    if title:
        out.append(f'<text x="4" y="16" font-weight="600">{escape(title)}</text>')
    left = label_w + 10
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        x = _x(v, lo, hi, left, plot_w)
        out.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 24}" stroke="#e5e7eb"/>'
            f'<text x="{x:.1f}" y="{height - 8}" text-anchor="middle" fill="#6b7280">{escape(fmt(v))}</text>'
        )
    if zero is not None:
        x = _x(zero, lo, hi, left, plot_w)
        out.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 24}" stroke="#374151" stroke-dasharray="3 3"/>'
        )
    for i, r in enumerate(rows):
        y = top + i * row_h + row_h / 2
        out.append(
            _link(
                f'<text x="{label_w}" y="{y + 4:.1f}" text-anchor="end"><title>{escape(r.label)}</title>'
                f"{escape(_fit(r.label, label_w))}</text>",
                r.href,
            )
        )
        if r.value is not None:
            clamp = lambda v: min(hi, max(lo, v))  # noqa: E731 - an interval may reach past the axis
            if r.lo is not None and r.hi is not None:
                out.append(
                    f'<line x1="{_x(clamp(r.lo), lo, hi, left, plot_w):.1f}" y1="{y:.1f}" '
                    f'x2="{_x(clamp(r.hi), lo, hi, left, plot_w):.1f}" y2="{y:.1f}" stroke="{r.colour}" stroke-width="3"/>'
                )
            out.append(
                f'<circle cx="{_x(clamp(r.value), lo, hi, left, plot_w):.1f}" cy="{y:.1f}" r="4.5" fill="{r.colour}">'
                f"<title>{escape(r.label)}: {escape(fmt(r.value))}"
                + (f" [{escape(fmt(r.lo))}, {escape(fmt(r.hi))}]" if r.lo is not None and r.hi is not None else "")
                + "</title></circle>"
            )
        out.append(f'<text x="{left + plot_w + 10}" y="{y + 4:.1f}" fill="#374151">{escape(r.note)}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def heatmap(
    rows: list[str],
    cols: list[str],
    cells: dict[tuple[str, str], dict],
    *,
    title: str = "",
    row_href=None,
    chart_id: str = "",
) -> Markup:
    """Effects as cells coloured by their recorded verdict (see ``verdict_class``); ``cells[(row,
    col)]`` holds ``delta``, ``lo``, ``hi``, ``verdict``. A finding shows its estimate; an open cell
    is grey and shows its interval, so no colour or bold number reads as a finding that was not
    made. Column labels are written at an angle so long category names never overlap; each cell's
    tooltip has the numbers and the verdict."""
    label_w = _label_width(rows, cap=360)
    cell_w, cell_h = 84, 22
    col_h = min(160, max([40, *(int(len(c) * 6.8 * 0.72) + 20 for c in cols)]))
    top = col_h + (22 if title else 0)
    width, height = label_w + 10 + cell_w * len(cols) + 60, top + cell_h * len(rows) + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart heatmap" id="{escape(chart_id)}" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" {_FONT}>'
    ]
    if title:
        out.append(f'<text x="4" y="16" font-weight="600">{escape(title)}</text>')
    left = label_w + 10
    for j, c in enumerate(cols):
        x = left + j * cell_w + cell_w / 2
        out.append(f'<text transform="translate({x:.1f},{top - 6}) rotate(-45)" fill="#374151">{escape(c)}</text>')
    for i, r in enumerate(rows):
        y = top + i * cell_h
        out.append(
            _link(
                f'<text x="{label_w}" y="{y + cell_h / 2 + 4:.1f}" text-anchor="end"><title>{escape(r)}</title>'
                f"{escape(_fit(r, label_w))}</text>",
                row_href(r) if row_href else None,
            )
        )
        for j, c in enumerate(cols):
            cell = cells.get((r, c))
            x = left + j * cell_w
            if cell is None or cell.get("delta") is None:
                out.append(
                    f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="#f9fafb" '
                    f'stroke="#e5e7eb" data-verdict="not measured"/>'
                )
                continue
            verdict = cell.get("verdict") or ""
            kind = verdict_class(verdict)
            d = cell["delta"]
            has_interval = cell.get("lo") is not None and cell.get("hi") is not None
            interval = f"[{cell['lo']:+.0%}, {cell['hi']:+.0%}]" if has_interval else ""
            # A finding or a settled "no effect" shows its estimate; an open cell its interval only.
            shown = (
                f"{d:+.0%}"
                if kind != "open" or not has_interval
                else f"{cell['lo'] * 100:+.0f}..{cell['hi'] * 100:+.0f}"
            )
            ink = "#fff" if kind in ("up", "down") else "#4b5563" if kind == "open" else "#111827"
            weight = ' font-weight="600"' if kind in ("up", "down") else ""
            size = ' font-size="10.5"' if kind == "open" else ""
            out.append(
                f'<g class="cell" data-verdict="{escape(verdict or "none recorded")}"><title>{escape(r)} · {escape(c)}: '
                f"{d:+.0%} {escape(interval)} {escape(verdict or 'no verdict recorded')}</title>"
                f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="{_FILL[kind]}"/>'
                f'<text x="{x + cell_w / 2 - 1:.1f}" y="{y + cell_h / 2 + 4:.1f}" text-anchor="middle" '
                f'fill="{ink}"{weight}{size}>{escape(shown)}</text></g>'
            )
    out.append("</svg>")
    return Markup("".join(out))


def history_chart(
    points: list[tuple[int, float | None]],
    *,
    best: list[tuple[int, float]] | None = None,
    title: str = "",
    y_label: str = "",
    chart_id: str = "",
) -> Markup:
    """An optimisation history: one dot per trial (its value), and the best-so-far as a step line."""
    values = [v for _, v in points if v is not None]
    width, height, left, top, plot_w, plot_h = 560, 240, 48, 26 if title else 10, 490, 170
    if not values:
        return Markup(f'<p class="dim">{escape(title)}: no finished trial yet.</p>')
    lo, hi = min(0.0, min(values)), max(1.0, max(values))
    n = max(1, max(i for i, _ in points))
    x = lambda i: left + (i / n) * plot_w  # noqa: E731
    y = lambda v: top + plot_h - (v - lo) / (hi - lo) * plot_h  # noqa: E731
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" {_FONT}>'
    ]
    if title:
        out.append(f'<text x="4" y="16" font-weight="600">{escape(title)}</text>')
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        out.append(
            f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + plot_w}" y2="{y(v):.1f}" stroke="#e5e7eb"/>'
            f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end" fill="#6b7280">{v:.2f}</text>'
        )
    for i in sorted({0, n, *(round(n * k / 4) for k in range(1, 4))}):
        out.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 14}" text-anchor="middle" fill="#6b7280">{i}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 4}" text-anchor="middle" fill="#6b7280">trial</text>')
    if y_label:
        out.append(
            f'<text transform="translate(12,{top + plot_h / 2}) rotate(-90)" text-anchor="middle" fill="#6b7280">{escape(y_label)}</text>'
        )
    for i, v in points:
        if v is not None:
            out.append(
                f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5" fill="#1d4ed8" fill-opacity="0.7">'
                f"<title>trial {i}: {v:.3f}</title></circle>"
            )
    if best:
        (i0, v0), rest = best[0], best[1:]
        path = f"M{x(i0):.1f} {y(v0):.1f}" + "".join(f" H{x(i):.1f} V{y(v):.1f}" for i, v in rest) + f" H{x(n):.1f}"
        out.append(f'<path d="{path}" fill="none" stroke="#137333" stroke-width="2"/>')
    out.append("</svg>")
    return Markup("".join(out))
