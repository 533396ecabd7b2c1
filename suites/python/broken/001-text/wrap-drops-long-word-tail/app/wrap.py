"""Greedy word wrap."""


def wrap(text: str, width: int) -> list[str]:
    """The lines of ``text`` filled greedily to at most ``width`` characters."""
    if width < 1:
        raise ValueError(f"width must be at least 1, got {width}")
    lines: list[str] = []
    current = ""
    for word in text.split():
        word = word[:width]
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current = f"{current} {word}"
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
