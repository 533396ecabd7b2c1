#include "tuner_test.h"
#include "words.h"

static int reverses_to(const char *s, const char *want) {
    char *got = str_reverse_words(s);
    int ok = got != NULL && strcmp(got, want) == 0;
    free(got);
    return ok;
}

TEST(reverses_words) { CHECK(reverses_to("one two three", "three two one")); }
TEST(collapses_and_strips_spaces) { CHECK(reverses_to("  the quick  fox ", "fox quick the")); }
TEST(one_word) { CHECK(reverses_to("word", "word")); }
TEST(no_words) { CHECK(reverses_to("", "") && reverses_to("    ", "")); }
TEST(tabs_are_part_of_words) { CHECK(reverses_to("a\tb c", "c a\tb")); }

TEST(input_is_untouched) {
    char s[] = "keep me";
    char *got = str_reverse_words(s);
    int ok = got != NULL && strcmp(s, "keep me") == 0 && strcmp(got, "me keep") == 0;
    free(got);
    CHECK(ok);
}

RUN_TESTS(CASE(reverses_words), CASE(collapses_and_strips_spaces), CASE(one_word), CASE(no_words),
          CASE(tabs_are_part_of_words), CASE(input_is_untouched))
