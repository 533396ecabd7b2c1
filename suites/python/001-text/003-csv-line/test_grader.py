import csv

import pytest

from app.csv_line import parse_csv_line


def reference(line, delimiter=","):
    return next(csv.reader([line], delimiter=delimiter, strict=True))


def test_plain_fields():
    assert parse_csv_line("a,b,c") == ["a", "b", "c"]


def test_spaces_are_kept():
    assert parse_csv_line(" a , b") == [" a ", " b"]


def test_empty_fields():
    assert parse_csv_line("") == [""]
    assert parse_csv_line("a,") == ["a", ""]
    assert parse_csv_line(",,") == ["", "", ""]


def test_quoted_fields():
    assert parse_csv_line('"a,b","say ""hi"""') == ["a,b", 'say "hi"']
    assert parse_csv_line('""') == [""]
    assert parse_csv_line('x,"",y') == ["x", "", "y"]


def test_other_delimiter():
    assert parse_csv_line('a;"b;c";d', delimiter=";") == ["a", "b;c", "d"]
    assert parse_csv_line("a,b;c", delimiter=";") == ["a,b", "c"]


@pytest.mark.parametrize(
    "line",
    ['1,"two, three",4', '"""quoted"""', 'a,"multi\nline",b', '"",,""', "solo", '"x",'],
)
def test_agrees_with_csv_module(line):
    assert parse_csv_line(line) == reference(line)


@pytest.mark.parametrize("line", ['"abc', 'a,"b', '"a"b,c', 'ab"c', '"a""'])
def test_malformed_lines_raise(line):
    with pytest.raises(ValueError):
        parse_csv_line(line)


@pytest.mark.parametrize("delimiter", ["", ";;", '"'])
def test_bad_delimiter_raises(delimiter):
    with pytest.raises(ValueError):
        parse_csv_line("a,b", delimiter=delimiter)
