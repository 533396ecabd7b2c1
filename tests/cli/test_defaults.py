"""One default per setting: every option of tune, ablate, compare and run that the library also
takes has the library's default, or none (None: the library decides)."""

from __future__ import annotations

import inspect

import pytest
from pydantic import BaseModel
from pydantic_core import PydanticUndefined


def _library_defaults(target) -> dict:
    """{name: default} of a pydantic model's fields or a callable's keyword parameters."""
    if isinstance(target, type) and issubclass(target, BaseModel):
        return {n: f.default for n, f in target.model_fields.items() if f.default is not PydanticUndefined}
    if hasattr(target, "__dataclass_fields__"):
        import dataclasses

        return {f.name: f.default for f in dataclasses.fields(target) if f.default is not dataclasses.MISSING}
    return {n: p.default for n, p in inspect.signature(target).parameters.items() if p.default is not p.empty}


def _targets(command: str):
    """The library each command hands its options to, and the options named differently there."""
    from tuner.ablation import ablate
    from tuner.compare import compare
    from tuner.runs import RunConfig
    from tuner.stats.zones import Zone
    from tuner.tuning import TuneConfig, build_config, tune

    return {
        "tune": ([TuneConfig, build_config, tune], {}),
        "ablate": ([ablate, Zone], {"rule_set": "set_name"}),
        "compare": ([compare], {}),
        "run": ([RunConfig], {}),
    }[command]


def mismatches(command, targets, renamed) -> tuple[list[str], int]:
    """(options whose CLI default differs from the library's, how many options were compared)."""
    library: dict = {}
    for t in targets:
        for name, default in _library_defaults(t).items():
            library.setdefault(name, default)
    bad, compared = [], 0
    for param in command.params:
        name = renamed.get(param.name, param.name)
        if name not in library or param.default is None:
            continue  # not a library setting, or left to the library
        compared += 1
        if param.default != library[name]:
            bad.append(f"--{param.name}: CLI {param.default!r}, library {library[name]!r}")
    return bad, compared


def _command(name: str):
    from typer.main import get_command

    from tuner.cli.main import app

    return get_command(app).commands[name]


@pytest.mark.parametrize("name", ["tune", "ablate", "compare", "run"])
def test_cli_defaults_are_the_librarys(name):
    bad, compared = mismatches(_command(name), *_targets(name))
    assert not bad, bad
    assert compared >= 1  # the comparison saw the command's settings (samples at least)


def test_a_second_copy_that_drifts_is_caught():
    import copy

    cmd = copy.deepcopy(_command("tune"))
    for p in cmd.params:
        if p.name == "samples":
            p.default = 5  # the mutant: the CLI's own copy of the trials' samples
    bad, _ = mismatches(cmd, *_targets("tune"))
    assert bad == ["--samples: CLI 5, library 4"]


def test_tune_has_one_flow_and_leaves_its_cap_to_the_library():
    """Issue 32: the search was "tpe" in the library and "screen" in the CLI; the TPE search is gone,
    and the default cap is written once (``tuner.tuning.budgets``), for the CLI and the library alike."""
    import inspect

    from tuner.tuning import tune

    params = {p.name: p for p in _command("tune").params}
    assert not {"search", "trials", "batch", "evidence_budget"} & set(params)
    assert params["budget_calls"].default is None and inspect.signature(tune).parameters["budget_calls"].default is None
