#include "tuner_test.h"
#include "trim.h"

TEST(trims_both_ends) {
    char s[] = "  hello world \t\n";
    CHECK(str_trim(s) == s);
    CHECK_STR_EQ(s, "hello world");
}

TEST(keeps_inner_whitespace) {
    char s[] = "\ta \t b\r\n";
    CHECK_STR_EQ(str_trim(s), "a \t b");
}

TEST(nothing_to_trim) {
    char s[] = "abc";
    CHECK_STR_EQ(str_trim(s), "abc");
}

TEST(only_whitespace_becomes_empty) {
    char s[] = " \t\v\f\r\n ";
    CHECK_STR_EQ(str_trim(s), "");
}

TEST(empty_string) {
    char s[] = "";
    CHECK_STR_EQ(str_trim(s), "");
}

TEST(high_bytes_are_not_whitespace) {
    char s[] = " \xc3\xa9t\xc3\xa9\xa0 ";
    CHECK_STR_EQ(str_trim(s), "\xc3\xa9t\xc3\xa9\xa0");
}

RUN_TESTS(CASE(trims_both_ends), CASE(keeps_inner_whitespace), CASE(nothing_to_trim),
          CASE(only_whitespace_becomes_empty), CASE(empty_string), CASE(high_bytes_are_not_whitespace))
