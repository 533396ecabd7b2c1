"""A rich progress display for the long phases (generate, grade), on stderr."""

from __future__ import annotations

from contextlib import contextmanager

__all__ = ["phase_progress"]

_LABELS = {"generate": "generating", "grade": "grading", "trial": "trials", "run": "runs"}


@contextmanager
def phase_progress(enabled: bool = True, description: str = ""):
    """Yields ``update(phase, done, total)``; one bar per phase, created on first use."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    tasks: dict[str, int] = {}

    def update(phase: str, done: int, total: int, note: str = "") -> None:
        label = f"{description}{_LABELS.get(phase, phase)}"
        if not tasks:
            progress.start()  # on first use: work that fails before any progress prints nothing
        if phase not in tasks:
            tasks[phase] = progress.add_task(label, total=total)
        progress.update(tasks[phase], completed=done, total=total, description=f"{label} {note}".rstrip())

    try:
        yield update
    finally:
        if tasks:
            progress.stop()
