import pytest

from app.wrap import wrap

SAMPLE = "The quick brown fox jumps over the lazy dog and keeps running far away"


def test_simple_wrap():
    assert wrap("the quick brown fox", 10) == ["the quick", "brown fox"]


def test_line_of_exactly_width_fits():
    assert wrap("aaa bbb", 7) == ["aaa bbb"]
    assert wrap("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]


def test_single_word_of_exactly_width():
    assert wrap("abcd", 4) == ["abcd"]


def test_long_word_is_split():
    assert wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap("xy abcdefghij z", 4) == ["xy", "abcd", "efgh", "ij z"]


def test_whitespace_is_collapsed():
    assert wrap("  one\ttwo\n\nthree   ", 20) == ["one two three"]


def test_no_words():
    assert wrap("", 5) == []
    assert wrap("   \n\t", 5) == []


@pytest.mark.parametrize("width", [1, 3, 5, 8, 13, 21])
def test_lines_are_full_and_bounded(width):
    lines = wrap(SAMPLE, width)
    assert all(0 < len(line) <= width for line in lines)
    assert all(line == line.strip() for line in lines)
    assert "".join(lines).replace(" ", "") == SAMPLE.replace(" ", "")
    # Greedy: the next line's first word would not have fitted.
    for line, nxt in zip(lines, lines[1:]):
        first = nxt.split(" ")[0]
        if len(first) <= width:
            assert len(line) + 1 + len(first) > width


@pytest.mark.parametrize("width", [0, -3])
def test_bad_width_raises(width):
    with pytest.raises(ValueError):
        wrap("some text", width)
