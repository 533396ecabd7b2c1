"""Tables that read at the terminal's width: columns are left out by priority when they do not fit
(``--wide`` keeps them all), and the table says which were left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer

__all__ = ["Column", "WideOption", "fitted_table", "print_wide"]

WideOption = Annotated[bool, typer.Option("--wide", help="Every column of the tables, whatever the terminal's width.")]


@dataclass
class Column:
    name: str
    priority: int  # lower stays longer; 0 is never left out
    justify: str = "left"
    wrap: bool = False  # may wrap at spaces (its width is then its longest word's)


def _plain(cell) -> str:
    from rich.text import Text

    return cell.plain if isinstance(cell, Text) else Text.from_markup(str(cell)).plain


def fitted_table(
    title: str,
    columns: list[Column],
    rows: list[list],
    *,
    width: int,
    wide: bool = False,
    row_styles: list[str | None] | None = None,
    sections: set[int] | None = None,
):
    """A rich Table of ``rows`` (cells in ``columns`` order) no wider than ``width`` unless ``wide``;
    returns (table, names of the columns left out, the width it needs: print it at least that wide)."""
    from rich import box
    from rich.table import Table

    # SIMPLE_HEAD without edge padding: each column's text, one space a side and a blank separator, plus
    # the two blank edges (hence the -1 below).
    def size(text: str, wrap: bool) -> int:
        return max((len(w) for w in text.split()), default=0) if wrap else len(text)

    widths = [
        max([size(c.name, c.wrap), *(size(_plain(r[i]), c.wrap) for r in rows)]) + 3 for i, c in enumerate(columns)
    ]
    keep = list(range(len(columns)))
    if not wide:
        # Leave out the least needed column until the rest fit (SIMPLE_HEAD: no borders, padding 1 a side).
        for i in sorted(range(len(columns)), key=lambda i: -columns[i].priority):
            if sum(widths[k] for k in keep) - 1 <= width or columns[i].priority == 0:
                break
            keep.remove(i)
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left")
    for i in keep:
        c = columns[i]
        table.add_column(
            c.name, justify=c.justify, overflow="fold", no_wrap=not c.wrap, min_width=widths[i] - 3 if c.wrap else None
        )
    for n, row in enumerate(rows):
        table.add_row(
            *(row[i] for i in keep), style=(row_styles or [None] * len(rows))[n], end_section=n in (sections or set())
        )
    return table, [columns[i].name for i in range(len(columns)) if i not in keep], sum(widths[k] for k in keep) - 1


def print_wide(out, table, needed: int) -> None:
    """Print ``table`` on ``out``, wider than the terminal when it needs to be (``--wide``: lines
    run on rather than folding every cell)."""
    if needed <= out.width:
        out.print(table)
        return
    from rich.console import Console

    Console(file=out.file, width=needed, highlight=False, soft_wrap=False).print(table)
