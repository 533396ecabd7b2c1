"""Merge overlapping or touching closed intervals."""


def merge_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A new sorted list in which no two intervals overlap or touch."""
    for start, end in intervals:
        if start > end:
            raise ValueError(f"interval start {start} is after its end {end}")
    ordered = sorted(intervals, key=lambda pair: pair[0])
    merged: list[tuple[int, int]] = []
    for start, end in ordered:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
