"""Reading what a graded tool run said, the same way for every kind.

The verdict comes only from JSON records that our own scripts or plug-ins print with a nonce they
were handed on stdin: the code under test shares their process and can print lines too, but does
not know the nonce. Step details are clipped so a flood of errors stays readable in a table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

__all__ = ["DETAIL_LINES", "nonce_records", "step_detail"]

DETAIL_LINES = 20


def nonce_records(lines: Iterable[str], nonce: str) -> list[dict]:
    """The JSON objects among ``lines`` whose ``nonce`` field is ``nonce``, in order."""
    found = []
    for line in lines:
        if nonce not in line:  # cheap: most lines are the tool's own or the answer's output
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("nonce") == nonce:
            found.append(record)
    return found


def step_detail(lines: list[str]) -> str:
    """A step's detail: the first ``DETAIL_LINES`` lines of ``lines``, then how many more there were."""
    out = "\n".join(lines).splitlines()
    more = len(out) - DETAIL_LINES
    return "\n".join(out[:DETAIL_LINES] + ([f"… ({more} more lines)"] if more > 0 else []))
