"""A drop the publish gate established stands: retrying with more ``--samples`` refuses again without
a call (the retries are looks of one sequential test, ``tuner.publish.gate_looks``), and ``--force``
publishes it recorded as forced, at the level the sequence had left."""

from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.slow]


def test_a_refused_regression_is_not_overturned_by_more_samples(cli, py_suite):
    first = cli("publish", "--from", "all-active", "--name", "p", "--model", "sim/careful", "--samples", "12")
    assert first.exit_code == 0, first.output
    refused = cli("publish", "--from", "none", "--name", "p", "--model", "sim/careful", "--samples", "12")
    assert refused.exit_code == 1 and "a drop is established" in refused.stderr, refused.output
    # The retry with more samples: refused from the record, before any call (a cap of one call could not pay for a look).
    again = cli(
        "publish", "--from", "none", "--name", "p", "--model", "sim/careful", "--samples", "24", "--budget-calls", "1"
    )
    assert again.exit_code == 1, again.output
    assert "was established" in again.stderr and "do not overturn" in again.stderr, again.stderr
    forced = cli(
        "publish", "--from", "none", "--name", "p", "--model", "sim/careful", "--samples", "24", "--force", "--json"
    )
    assert forced.exit_code == 0, forced.output
    gate = json.loads(forced.stdout)["manifest"]["gate"]
    assert gate["forced"] is True and gate["status"] == "regressed"
    assert gate["established"] and all(e["samples"] == 12 for e in gate["established"])
    assert gate["drop_looks"][0] == [12, pytest.approx(0.05 * 2 / 3)] and len(gate["drop_looks"]) == 2
    assert gate["drop_alpha"] == pytest.approx(0.05 * (1 - 1 / 6) - 0.05 * 2 / 3)
    assert sum(level for _, level in gate["drop_looks"]) <= 0.05
