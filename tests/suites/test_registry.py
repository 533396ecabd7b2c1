"""Suite kinds are found through the ``tuner.suite_kinds`` entry-point group."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

import tuner.suites as suites
from kindkit import shipped_kinds
from tuner.errors import InputError
from tuner.suites import SuiteKind, get_kind, kind_names


class _TinyKind:
    name = "tiny"
    steps = ("filesystem", "tests")
    grader_file = "check.sh"
    answer_roots = ("src",)
    answer_extensions = ("sh",)
    published_name = "tiny_rules"
    file_globs = "src/**/*.sh"

    def output_format(self) -> str:
        return "files"

    def grader_id(self, suite) -> str:
        return "tiny"

    def grade(self, suite, requests, *, cache_dir, use_cache=True, progress=None, timeout_s=None):
        return []


class _NotAKind:
    name = "half"


def _with_entry_points(monkeypatch, *eps: EntryPoint) -> None:
    real = suites.entry_points

    def fake(*, group):
        assert group == suites.ENTRY_POINT_GROUP
        return [*real(group=group), *eps]

    monkeypatch.setattr(suites, "entry_points", fake)
    suites._kinds.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_registry():
    suites._kinds.cache_clear()
    yield
    suites._kinds.cache_clear()


def test_the_shipped_kinds_are_registered_by_entry_point_and_follow_the_protocol():
    shipped = shipped_kinds()  # from the entry-point group, not a list kept here
    assert shipped and set(shipped) <= set(kind_names())
    for name in shipped:
        kind = get_kind(name)
        assert isinstance(kind, SuiteKind)
        assert kind.name == name and kind.answer_extensions and kind.steps


def test_a_kind_from_another_package_is_found_by_its_entry_point(monkeypatch):
    _with_entry_points(monkeypatch, EntryPoint("tiny", f"{__name__}:_TinyKind", suites.ENTRY_POINT_GROUP))
    assert "tiny" in kind_names()
    assert get_kind("tiny").answer_extensions == ("sh",)


def test_an_unknown_kind_names_the_known_ones():
    with pytest.raises(Exception, match=rf"unknown suite kind 'nope' \(known: {', '.join(kind_names())}\)"):
        get_kind("nope")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (f"{__name__}:_NotAKind", "does not implement tuner.suites.SuiteKind"),
        (f"{__name__}:_Missing", "cannot be loaded"),
        ("no_such_module_xyz:Kind", "cannot be loaded"),
    ],
)
def test_a_broken_plug_in_is_named_in_one_line(monkeypatch, value, message):
    _with_entry_points(monkeypatch, EntryPoint("bad", value, suites.ENTRY_POINT_GROUP))
    with pytest.raises(InputError, match=rf"suite kind 'bad' \({value}\) {message}"):
        kind_names()


def test_an_entry_point_whose_kind_has_another_name_is_refused(monkeypatch):
    _with_entry_points(monkeypatch, EntryPoint("other", f"{__name__}:_TinyKind", suites.ENTRY_POINT_GROUP))
    with pytest.raises(InputError, match="names itself 'tiny'"):
        kind_names()
