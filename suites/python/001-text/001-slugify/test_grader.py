import pytest

from app.slugify import slugify


def test_basic_words():
    assert slugify("Hello, World!") == "hello-world"


def test_runs_and_ends_are_collapsed():
    assert slugify("  --Hello,   World!--  ") == "hello-world"


def test_accents_keep_their_base_letter():
    assert slugify("Crème Brûlée") == "creme-brulee"
    assert slugify("Ångström Čapek") == "angstrom-capek"


def test_full_case_folding():
    assert slugify("Straße") == "strasse"
    assert slugify("STRASSE") == slugify("straße")


def test_compatibility_forms():
    assert slugify("ＰＹＴＨＯＮ ３") == "python-3"


def test_underscore_separator():
    assert slugify("Hello big World", sep="_") == "hello_big_world"
    assert slugify("__a  b__", sep="_") == "a_b"


def test_digits_are_kept():
    assert slugify("Top 10 tips (2024)") == "top-10-tips-2024"


@pytest.mark.parametrize("text", ["", "!!!", "   ", "日本"])
def test_empty_slug_raises(text):
    with pytest.raises(ValueError):
        slugify(text)


def test_bad_separator_raises():
    with pytest.raises(ValueError):
        slugify("hello world", sep="+")
