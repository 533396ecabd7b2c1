import pytest

from app.records import group_by, sort_records

PEOPLE = [
    {"name": "ana", "team": "red", "score": 3},
    {"name": "bo", "team": "blue", "score": 5},
    {"name": "cy", "team": "red", "score": 5},
    {"name": "di", "team": "green", "score": 1},
    {"name": "ed", "team": "blue", "score": 3},
]


def names(records):
    return [r["name"] for r in records]


def test_group_by_keeps_first_seen_key_order():
    groups = group_by(PEOPLE, lambda p: p["team"])
    assert list(groups) == ["red", "blue", "green"]
    assert names(groups["red"]) == ["ana", "cy"]
    assert names(groups["blue"]) == ["bo", "ed"]


def test_group_by_accepts_generators():
    groups = group_by((n for n in range(7)), lambda n: n % 3)
    assert groups == {0: [0, 3, 6], 1: [1, 4], 2: [2, 5]}


def test_group_by_calls_are_independent():
    first = group_by(["a", "bb"], len)
    second = group_by(["ccc"], len)
    assert first == {1: ["a"], 2: ["bb"]}
    assert second == {3: ["ccc"]}
    assert first is not second


def test_group_by_adds_to_given_groups():
    existing = {1: ["x"]}
    result = group_by(["a", "bb"], len, groups=existing)
    assert result is existing
    assert existing == {1: ["x", "a"], 2: ["bb"]}


def test_sort_ascending_is_stable():
    assert names(sort_records(PEOPLE, "score")) == ["di", "ana", "ed", "bo", "cy"]


def test_sort_descending_is_stable():
    assert names(sort_records(PEOPLE, "score", descending=True)) == ["bo", "cy", "ana", "ed", "di"]


def test_sort_returns_new_list_and_leaves_input():
    data = list(PEOPLE)
    result = sort_records(data, "name", descending=True)
    assert names(data) == ["ana", "bo", "cy", "di", "ed"]
    assert result is not data
    assert names(result) == ["ed", "di", "cy", "bo", "ana"]
    assert all(any(r is d for d in data) for r in result)  # the same dicts, not copies


def test_sort_missing_field_raises():
    with pytest.raises(ValueError):
        sort_records(PEOPLE + [{"name": "zed"}], "score")
