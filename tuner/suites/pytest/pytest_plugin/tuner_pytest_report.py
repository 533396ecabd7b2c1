"""pytest plugin (``-p tuner_pytest_report``) that reports each test to the grading host.

It is imported when pytest parses its options, before output capture starts and before the
answer is imported: it keeps a duplicate of the stdout pipe the host reads and a nonce the host
sends on stdin, and writes one JSON line per test phase and one when the session finishes. The
host trusts nothing else: not a report file (the answer can write files), not the exit code (the
answer can call ``os._exit(0)``); a run without the ``finished`` record did not finish.
"""

from __future__ import annotations

import json
import os
import sys

_OUT = os.dup(1)
_NONCE = sys.stdin.readline().strip()


def _write(record: dict) -> None:
    # A fresh line: whatever the answer printed without a newline cannot swallow the record.
    data = ("\n" + json.dumps({**record, "nonce": _NONCE}) + "\n").encode()
    while data:
        data = data[os.write(_OUT, data):]


def pytest_configure(config) -> None:
    _write({"started": True})  # pytest runs: from here on, an unfinished run is the answer's doing


def pytest_collection_finish(session) -> None:
    _write({"collected": len(session.items)})


def pytest_runtest_logreport(report) -> None:
    if report.when == "call" or report.outcome != "passed":
        message = "" if report.passed else str(report.longrepr).strip().splitlines()[-1:]
        _write({"test": report.nodeid.split("::")[-1], "when": report.when, "outcome": report.outcome,
                "message": (message[0] if message else "")[:300]})


def pytest_sessionfinish(session, exitstatus) -> None:
    _write({"finished": True, "exitstatus": int(exitstatus), "collected": session.testscollected})
