import pytest

from app.censor import censor


def test_masks_whole_words_only():
    assert censor("the cat will concatenate", ["cat"]) == "the *** will concatenate"


def test_keeps_punctuation_and_spacing():
    assert censor("Darn!  darn,darn.", ["darn"]) == "****!  ****,****."


def test_case_insensitive():
    assert censor("Cat CAT cAt", ["cat"]) == "*** *** ***"


def test_full_case_folding():
    assert censor("Die STRASSE ist lang", ["straße"]) == "Die ******* ist lang"
    assert censor("Die Straße ist lang", ["STRASSE"]) == "Die ****** ist lang"


def test_compatibility_forms():
    assert censor("open ｆｉｌｅ now", ["file"]) == "open **** now"


def test_custom_mask_and_generator():
    words = (w for w in ["secret", "code"])
    assert censor("the secret code is 42", words, mask="#") == "the ###### #### is 42"


def test_nothing_banned():
    assert censor("hello world", []) == "hello world"


@pytest.mark.parametrize("mask", ["", "**"])
def test_bad_mask_raises(mask):
    with pytest.raises(ValueError):
        censor("hello", ["hello"], mask=mask)


def test_empty_banned_word_raises():
    with pytest.raises(ValueError):
        censor("hello", ["ok", ""])
