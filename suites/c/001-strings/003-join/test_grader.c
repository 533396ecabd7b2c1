#include "tuner_test.h"
#include "join.h"

static int joins_to(const char *const *parts, size_t count, const char *sep, const char *want) {
    char *got = str_join(parts, count, sep);
    int ok = got != NULL && strcmp(got, want) == 0;
    free(got);
    return ok;
}

TEST(joins_with_separator) {
    const char *parts[] = {"a", "bc", "def"};
    CHECK(joins_to(parts, 3, ", ", "a, bc, def"));
}

TEST(one_part_has_no_separator) {
    const char *parts[] = {"alone"};
    CHECK(joins_to(parts, 1, "--", "alone"));
}

TEST(no_parts_gives_empty_string) {
    const char *parts[] = {"unused"};
    CHECK(joins_to(parts, 0, ",", ""));
}

TEST(empty_parts_and_separator) {
    const char *parts[] = {"", "x", ""};
    CHECK(joins_to(parts, 3, "/", "/x/"));
    CHECK(joins_to(parts, 3, "", "x"));
}

TEST(result_is_a_fresh_string) {
    const char *parts[] = {"left", "right"};
    char *got = str_join(parts, 2, "|");
    CHECK(got != NULL);
    CHECK(got != parts[0]);
    got[0] = 'L';
    int ok = strcmp(got, "Left|right") == 0 && strcmp(parts[0], "left") == 0;
    free(got);
    CHECK(ok);
}

RUN_TESTS(CASE(joins_with_separator), CASE(one_part_has_no_separator), CASE(no_parts_gives_empty_string),
          CASE(empty_parts_and_separator), CASE(result_is_a_fresh_string))
