#include "tuner_test.h"
#include "copy.h"

static void fill(char *buf, size_t size) { memset(buf, 'x', size); }

TEST(copies_a_short_string) {
    char buf[16];
    fill(buf, sizeof buf);
    CHECK_INT_EQ(str_copy(buf, sizeof buf, "hello"), 5);
    CHECK_STR_EQ(buf, "hello");
    CHECK(buf[6] == 'x');
}

TEST(cuts_and_terminates) {
    char buf[8];
    fill(buf, sizeof buf);
    CHECK_INT_EQ(str_copy(buf, 4, "abcdef"), 6);
    CHECK_STR_EQ(buf, "abc");
    CHECK(buf[4] == 'x');
}

TEST(exact_fit_is_cut_by_one) {
    char buf[5];
    fill(buf, sizeof buf);
    CHECK_INT_EQ(str_copy(buf, sizeof buf, "12345"), 5);
    CHECK_STR_EQ(buf, "1234");
}

TEST(size_one_gives_empty_string) {
    char buf[4];
    fill(buf, sizeof buf);
    CHECK_INT_EQ(str_copy(buf, 1, "abc"), 3);
    CHECK_STR_EQ(buf, "");
    CHECK(buf[1] == 'x');
}

TEST(size_zero_touches_nothing) {
    char buf[4];
    fill(buf, sizeof buf);
    CHECK_INT_EQ(str_copy(buf, 0, "abc"), 3);
    CHECK(buf[0] == 'x');
}

TEST(heap_buffer_of_exact_size) {
    char *buf = malloc(3);
    CHECK(buf != NULL);
    memset(buf, 'x', 3);
    size_t n = str_copy(buf, 3, "abcdef");
    int ok = n == 6 && strcmp(buf, "ab") == 0;
    free(buf);
    CHECK(ok);
}

RUN_TESTS(CASE(copies_a_short_string), CASE(cuts_and_terminates), CASE(exact_fit_is_cut_by_one),
          CASE(size_one_gives_empty_string), CASE(size_zero_touches_nothing), CASE(heap_buffer_of_exact_size))
