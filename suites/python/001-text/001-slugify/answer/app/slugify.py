"""Turn arbitrary text into a URL slug."""

import re
import unicodedata

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(text: str, sep: str = "-") -> str:
    """Lower-case ASCII slug of ``text``, words joined by ``sep``."""
    if sep not in ("-", "_"):
        raise ValueError(f"sep must be '-' or '_', got {sep!r}")
    folded = unicodedata.normalize("NFKD", text.casefold())
    ascii_only = folded.encode("ascii", "ignore").decode("ascii")
    slug = _NOT_ALNUM.sub(sep, ascii_only).strip(sep)
    if not slug:
        raise ValueError(f"nothing to slugify in {text!r}")
    return slug
