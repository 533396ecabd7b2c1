"""Publishing the winning guideline file with its evidence."""

from tuner.publish.manifest import Manifest, PublishedRule, next_version, read_manifest
from tuner.publish.publish import PublishResult, RegressionRefused, latest_study, publish, resolve_source

__all__ = ["Manifest", "PublishResult", "PublishedRule", "RegressionRefused", "latest_study", "next_version", "publish", "read_manifest", "resolve_source"]
