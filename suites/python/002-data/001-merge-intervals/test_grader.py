import pytest

from app.intervals import merge_intervals


def test_empty():
    assert merge_intervals([]) == []


def test_overlapping_are_merged():
    assert merge_intervals([(1, 4), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]


def test_touching_are_merged():
    assert merge_intervals([(1, 3), (3, 5)]) == [(1, 5)]


def test_adjacent_integers_stay_apart():
    assert merge_intervals([(1, 2), (3, 4)]) == [(1, 2), (3, 4)]


def test_unsorted_and_nested():
    assert merge_intervals([(10, 12), (1, 9), (2, 3), (0, 0)]) == [(0, 0), (1, 9), (10, 12)]


def test_lists_become_tuples():
    assert merge_intervals([[5, 7], [6, 8]]) == [(5, 8)]


def test_input_is_not_changed():
    data = [(8, 10), (1, 3), (2, 6)]
    before = list(data)
    result = merge_intervals(data)
    assert data == before
    assert result is not data


@pytest.mark.parametrize("bad", [[(3, 1)], [(0, 1), (5, 4)]])
def test_reversed_interval_raises(bad):
    with pytest.raises(ValueError):
        merge_intervals(bad)
