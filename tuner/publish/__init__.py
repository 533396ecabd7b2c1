"""Publishing the winning guideline file with its evidence."""

from tuner.publish.manifest import Manifest, PublishedRule, next_version, read_manifest
from tuner.publish.publish import (
    GATE_BASE,
    NotAccepted,
    PublishResult,
    RegressionRefused,
    Source,
    gate,
    gate_offset,
    latest_study,
    publish,
    resolve_source,
)
from tuner.publish.published import published_prompt

__all__ = [
    "GATE_BASE",
    "Manifest",
    "NotAccepted",
    "PublishResult",
    "PublishedRule",
    "RegressionRefused",
    "Source",
    "gate",
    "gate_offset",
    "latest_study",
    "next_version",
    "publish",
    "published_prompt",
    "read_manifest",
    "resolve_source",
]
