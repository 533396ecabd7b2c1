"""Prompt templates: the header, the section order and how one rule renders.

``guidelines/templates/<name>.yaml``::

    header: |            # text before the first section
      # Convex guidelines
    section_order: [Functions, Schema, Queries]   # top-level sections first, in this order
    rule_format: "**{title}.** {text}"            # placeholders: {id} {title} {text}
    footer: ""
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tuner.errors import NotFoundError
from tuner.guidelines._yaml import load_model
from tuner.hashing import sha256_json

__all__ = ["Template", "load_template"]


class Template(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "default"
    header: str = ""
    section_order: list[str] = Field(default_factory=list)
    rule_format: str = "**{title}.** {text}"
    footer: str = ""

    @field_validator("rule_format")
    @classmethod
    def _has_text(cls, value: str) -> str:
        if "{text}" not in value:
            raise ValueError("must contain {text}")
        try:
            value.format(id="", title="", text="")
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"bad placeholder {exc}; use {{id}}, {{title}}, {{text}}") from None
        return value

    @property
    def hash(self) -> str:
        return sha256_json(self.model_dump())


def load_template(templates_dir: Path, name: str) -> Template:
    path = templates_dir / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in templates_dir.glob("*.yaml"))
        raise NotFoundError(f"unknown template '{name}' (known: {', '.join(known) or 'none'})")
    template = load_model(path, Template, label=str(path.relative_to(templates_dir.parent.parent)))
    return template.model_copy(update={"name": name})
