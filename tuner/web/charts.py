"""Server-rendered SVG charts for the viewer: intervals (pass rates, forest plots of effects),
a heatmap and an optimisation history.

Hand-written SVG rather than a chart library in the page: nothing external is reachable (no CDN),
the markup is small, and every label is text the browser lays out with its own fonts (no glyph a
font may lack). Every value that reaches the markup is escaped.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

__all__ = ["Interval", "interval_chart", "heatmap", "history_chart", "verdict_colour", "symmetric_range"]

_FONT = 'font-family="system-ui, sans-serif" font-size="12"'
_COLOURS = {"helps": "#137333", "improved": "#137333", "hurts": "#b3261e", "regressed": "#b3261e",
            "no meaningful effect": "#6b7280", "no detectable change": "#6b7280", "no detectable effect": "#6b7280",
            "undecided": "#a15c00", "not measured": "#9ca3af"}


def verdict_colour(verdict: str | None) -> str:
    return _COLOURS.get(verdict or "", "#1d4ed8")


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


def _label_width(labels: list[str], cap: int = 480) -> int:
    return min(cap, max([60, *(int(len(s) * _CHAR_W) + 12 for s in labels)]))


def _fit(label: str, width: int) -> str:
    """``label`` cut to the column (the whole text stays in the row's tooltip)."""
    most = max(4, int((width - 12) / _CHAR_W))
    return label if len(label) <= most else label[: most - 3] + "..."


def _link(element: str, href: str | None) -> str:
    # The link wraps the whole <text> (an <a> inside <text> is not a reliable click target).
    return f'<a class="chart-link" href="{escape(href)}">{element}</a>' if href else element


def symmetric_range(values: list[float | None], step: float = 0.25) -> float:
    """The smallest multiple of ``step`` (at least ``step``, at most 1) covering every value's size."""
    import math

    top = max([abs(v) for v in values if v is not None] or [step])
    return min(1.0, max(step, math.ceil(top / step - 1e-9) * step))


def interval_chart(rows: list[Interval], *, lo: float = 0.0, hi: float = 1.0, zero: float | None = None,
                   percent: bool = True, title: str = "", chart_id: str = "", value_format=None) -> Markup:
    """One row per item: a dot at the estimate and a bar over its interval, on a shared axis.

    Used for pass rates per category (0..1) and, with ``zero=0`` and a symmetric range, as a forest
    plot of effects.
    """
    label_w = _label_width([r.label for r in rows])
    plot_w, note_w, row_h, top = 360, 180, 22, 26 if title else 8
    width, height = label_w + plot_w + note_w + 20, top + row_h * len(rows) + 30
    fmt = value_format or ((lambda v: f"{v:+.0%}" if zero is not None else f"{v:.0%}") if percent else (lambda v: f"{v:+.2f}"))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" role="img" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" {_FONT}>']
    if title:
        out.append(f'<text x="4" y="16" font-weight="600">{escape(title)}</text>')
    left = label_w + 10
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        x = _x(v, lo, hi, left, plot_w)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 24}" stroke="#e5e7eb"/>'
                   f'<text x="{x:.1f}" y="{height - 8}" text-anchor="middle" fill="#6b7280">{escape(fmt(v))}</text>')
    if zero is not None:
        x = _x(zero, lo, hi, left, plot_w)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 24}" stroke="#374151" stroke-dasharray="3 3"/>')
    for i, r in enumerate(rows):
        y = top + i * row_h + row_h / 2
        out.append(_link(f'<text x="{label_w}" y="{y + 4:.1f}" text-anchor="end"><title>{escape(r.label)}</title>'
                         f'{escape(_fit(r.label, label_w))}</text>', r.href))
        if r.value is not None:
            clamp = lambda v: min(hi, max(lo, v))  # noqa: E731 - an interval may reach past the axis
            if r.lo is not None and r.hi is not None:
                out.append(f'<line x1="{_x(clamp(r.lo), lo, hi, left, plot_w):.1f}" y1="{y:.1f}" '
                           f'x2="{_x(clamp(r.hi), lo, hi, left, plot_w):.1f}" y2="{y:.1f}" stroke="{r.colour}" stroke-width="3"/>')
            out.append(f'<circle cx="{_x(clamp(r.value), lo, hi, left, plot_w):.1f}" cy="{y:.1f}" r="4.5" fill="{r.colour}">'
                       f'<title>{escape(r.label)}: {escape(fmt(r.value))}'
                       + (f' [{escape(fmt(r.lo))}, {escape(fmt(r.hi))}]' if r.lo is not None and r.hi is not None else "")
                       + '</title></circle>')
        out.append(f'<text x="{left + plot_w + 10}" y="{y + 4:.1f}" fill="#374151">{escape(r.note)}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def heatmap(rows: list[str], cols: list[str], cells: dict[tuple[str, str], dict], *, title: str = "",
            row_href=None, chart_id: str = "") -> Markup:
    """Effects as coloured cells (green helps, red hurts, by size); ``cells[(row, col)]`` holds
    ``delta``, ``lo``, ``hi``, ``verdict``. Column labels are written at an angle so long category
    names never overlap; each cell's tooltip has the numbers."""
    label_w = _label_width(rows, cap=360)
    cell_w, cell_h = 64, 22
    col_h = min(160, max([40, *(int(len(c) * 6.8 * 0.72) + 20 for c in cols)]))
    top = col_h + (22 if title else 0)
    width, height = label_w + 10 + cell_w * len(cols) + 60, top + cell_h * len(rows) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart heatmap" id="{escape(chart_id)}" role="img" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" {_FONT}>']
    if title:
        out.append(f'<text x="4" y="16" font-weight="600">{escape(title)}</text>')
    left = label_w + 10
    for j, c in enumerate(cols):
        x = left + j * cell_w + cell_w / 2
        out.append(f'<text transform="translate({x:.1f},{top - 6}) rotate(-45)" fill="#374151">{escape(c)}</text>')
    for i, r in enumerate(rows):
        y = top + i * cell_h
        out.append(_link(f'<text x="{label_w}" y="{y + cell_h / 2 + 4:.1f}" text-anchor="end"><title>{escape(r)}</title>'
                         f'{escape(_fit(r, label_w))}</text>', row_href(r) if row_href else None))
        for j, c in enumerate(cols):
            cell = cells.get((r, c))
            x = left + j * cell_w
            if cell is None or cell.get("delta") is None:
                out.append(f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="#f3f4f6"/>')
                continue
            d = max(-1.0, min(1.0, cell["delta"]))
            strength = min(1.0, abs(d) * 2.5)
            rgb = (19, 115, 51) if d > 0 else (179, 38, 30)
            fill = "#{:02x}{:02x}{:02x}".format(*(round(255 - (255 - v) * strength) for v in rgb))
            verdict = cell.get("verdict") or ""
            strong = verdict in ("helps", "hurts", "improved", "regressed")
            weight = ' font-weight="600"' if strong else ""
            interval = f" [{cell['lo']:+.0%}, {cell['hi']:+.0%}]" if cell.get("lo") is not None and cell.get("hi") is not None else ""
            out.append(f'<g><title>{escape(r)} · {escape(c)}: {d:+.0%}{escape(interval)} {escape(verdict)}</title>'
                       f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="{fill}"'
                       + (' stroke="#111827" stroke-width="1.5"' if strong else "") + "/>"
                       f'<text x="{x + cell_w / 2 - 1:.1f}" y="{y + cell_h / 2 + 4:.1f}" text-anchor="middle" '
                       f'fill="{"#fff" if strength > 0.6 else "#111827"}"{weight}>{d:+.0%}</text></g>')
    out.append("</svg>")
    return Markup("".join(out))


def history_chart(points: list[tuple[int, float | None]], *, best: list[tuple[int, float]] | None = None,
                  title: str = "", y_label: str = "", chart_id: str = "") -> Markup:
    """An optimisation history: one dot per trial (its value), and the best-so-far as a step line."""
    values = [v for _, v in points if v is not None]
    width, height, left, top, plot_w, plot_h = 560, 240, 48, 26 if title else 10, 490, 170
    if not values:
        return Markup(f'<p class="dim">{escape(title)}: no finished trial yet.</p>')
    lo, hi = min(0.0, min(values)), max(1.0, max(values))
    n = max(1, max(i for i, _ in points))
    x = lambda i: left + (i / n) * plot_w  # noqa: E731
    y = lambda v: top + plot_h - (v - lo) / (hi - lo) * plot_h  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" role="img" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" {_FONT}>']
    if title:
        out.append(f'<text x="4" y="16" font-weight="600">{escape(title)}</text>')
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + plot_w}" y2="{y(v):.1f}" stroke="#e5e7eb"/>'
                   f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end" fill="#6b7280">{v:.2f}</text>')
    for i in sorted({0, n, *(round(n * k / 4) for k in range(1, 4))}):
        out.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 14}" text-anchor="middle" fill="#6b7280">{i}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 4}" text-anchor="middle" fill="#6b7280">trial</text>')
    if y_label:
        out.append(f'<text transform="translate(12,{top + plot_h / 2}) rotate(-90)" text-anchor="middle" fill="#6b7280">{escape(y_label)}</text>')
    for i, v in points:
        if v is not None:
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5" fill="#1d4ed8" fill-opacity="0.7">'
                       f'<title>trial {i}: {v:.3f}</title></circle>')
    if best:
        (i0, v0), rest = best[0], best[1:]
        path = f"M{x(i0):.1f} {y(v0):.1f}" + "".join(f" H{x(i):.1f} V{y(v):.1f}" for i, v in rest) + f" H{x(n):.1f}"
        out.append(f'<path d="{path}" fill="none" stroke="#137333" stroke-width="2"/>')
    out.append("</svg>")
    return Markup("".join(out))
