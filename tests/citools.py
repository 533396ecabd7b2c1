"""What CI (CI=1) does with a test whose tool is missing: fail it instead of skipping (conftest.py)."""

from __future__ import annotations

import os
import re

# Skips that mean a tool is missing: Node, a C compiler, bubblewrap, Chromium, PostgreSQL. CI
# (CI=1; .ci/run installs them all) fails such a test instead of skipping it, so a broken CI
# machine cannot pass by testing less. Other skips (no network, not root) stay skips.
TOOL_MISSING = re.compile(
    r"node is not installed|gcc is not installed|bubblewrap is not installed|"
    r"no system Chromium|PostgreSQL not available|psql \(PostgreSQL's client\) is needed"
)


def fails_in_ci(reason: str) -> bool:
    return bool(os.environ.get("CI")) and TOOL_MISSING.search(reason) is not None
