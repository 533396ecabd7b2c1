"""Parse one line of CSV (RFC 4180 quoting)."""

QUOTE = '"'


def parse_csv_line(line: str, delimiter: str = ",") -> list[str]:
    """The fields of ``line``; quoted fields may hold the delimiter and doubled quotes."""
    if len(delimiter) != 1 or delimiter == QUOTE:
        raise ValueError(f"delimiter must be one character other than '\"', got {delimiter!r}")
    fields: list[str] = []
    i, n = 0, len(line)
    while True:
        value: list[str] = []
        if i < n and line[i] == QUOTE:
            i += 1
            while True:
                if i >= n:
                    raise ValueError(f"unterminated quoted field in {line!r}")
                if line[i] == QUOTE:
                    if i + 1 < n and line[i + 1] == QUOTE:
                        value.append(QUOTE + QUOTE)
                        i += 2
                        continue
                    i += 1
                    value.insert(0, QUOTE)
                    value.append(QUOTE)
                    break
                value.append(line[i])
                i += 1
            if i < n and line[i] != delimiter:
                raise ValueError(f"unexpected {line[i]!r} after a closing quote at position {i}")
        else:
            while i < n and line[i] != delimiter:
                if line[i] == QUOTE:
                    raise ValueError(f"quote inside an unquoted field at position {i}")
                value.append(line[i])
                i += 1
        fields.append("".join(value))
        if i >= n:
            return fields
        i += 1  # the delimiter
