"""The exact text a published version sends, read back from what was published.

The gate of a new publish compares against what users have today: the published bytes, not the
published rule ids recomposed from today's rule files (a template or rule edit since would make the
"previous" side something nobody ever shipped). Each publish keeps ``history/<version>.prompt.md``;
versions published before that are read from ``<name>.md`` after its provenance line, and the text
is trusted only when its hash is the one the manifest records.
"""

from __future__ import annotations

from pathlib import Path

from tuner.guidelines.compose import Prompt, PromptRule
from tuner.hashing import sha256_text
from tuner.publish.manifest import Manifest
from tuner.tokens import count_tokens

__all__ = ["published_prompt", "prompt_history_path"]


def prompt_history_path(out_dir: Path, version: str) -> Path:
    return out_dir / "history" / f"{version}.prompt.md"


def _candidates(out_dir: Path, manifest: Manifest) -> list[str]:
    texts = []
    kept = prompt_history_path(out_dir, manifest.version)
    if kept.is_file():
        texts.append(kept.read_text(encoding="utf-8"))
    current = out_dir / f"{manifest.name}.md"
    if current.is_file():
        head, sep, body = current.read_text(encoding="utf-8").partition("\n\n")
        if sep and head.startswith("<!--"):
            texts.append(body)
    return texts


def published_prompt(out_dir: Path, manifest: Manifest) -> Prompt | None:
    """The prompt ``manifest`` published, byte for byte, or None when its text cannot be recovered."""
    for text in _candidates(out_dir, manifest):
        if sha256_text(text) == manifest.prompt_hash:
            return Prompt(
                set_name=f"{manifest.name}@{manifest.version}",
                template="published",
                template_hash="",
                text=text,
                rules=tuple(PromptRule(id=r.id, variant=r.variant, hash=r.hash) for r in manifest.rules),
                hash=manifest.prompt_hash,
                tokens=count_tokens(text),
            )
    return None
