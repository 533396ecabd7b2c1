#include "tuner_test.h"
#include "vec.h"

TEST(starts_empty) {
    struct int_vec v;
    vec_init(&v);
    CHECK(v.data == NULL);
    CHECK_INT_EQ(v.len, 0);
    CHECK_INT_EQ(v.cap, 0);
    CHECK_INT_EQ(vec_sum(&v), 0);
    vec_free(&v);
}

TEST(pushes_and_sums) {
    struct int_vec v;
    vec_init(&v);
    for (int i = 1; i <= 4; i++) CHECK_INT_EQ(vec_push(&v, i), 0);
    long long sum = vec_sum(&v);
    size_t len = v.len, cap = v.cap;
    vec_free(&v);
    CHECK_INT_EQ(len, 4);
    CHECK_INT_EQ(cap, 4);
    CHECK_INT_EQ(sum, 10);
}

TEST(grows_by_doubling) {
    struct int_vec v;
    vec_init(&v);
    for (int i = 0; i < 100; i++) vec_push(&v, i);
    long long sum = vec_sum(&v);
    size_t len = v.len, cap = v.cap;
    int last = v.data[99];
    vec_free(&v);
    CHECK_INT_EQ(len, 100);
    CHECK_INT_EQ(cap, 128);
    CHECK_INT_EQ(last, 99);
    CHECK_INT_EQ(sum, 4950);
}

TEST(free_leaves_it_empty_and_reusable) {
    struct int_vec v;
    vec_init(&v);
    vec_push(&v, 7);
    vec_free(&v);
    CHECK(v.data == NULL && v.len == 0 && v.cap == 0);
    vec_free(&v);
    vec_push(&v, -3);
    long long sum = vec_sum(&v);
    vec_free(&v);
    CHECK_INT_EQ(sum, -3);
}

TEST(sum_does_not_overflow_int) {
    struct int_vec v;
    vec_init(&v);
    for (int i = 0; i < 3; i++) vec_push(&v, 2000000000);
    long long sum = vec_sum(&v);
    vec_free(&v);
    CHECK_INT_EQ(sum, 6000000000LL);
}

RUN_TESTS(CASE(starts_empty), CASE(pushes_and_sums), CASE(grows_by_doubling),
          CASE(free_leaves_it_empty_and_reusable), CASE(sum_does_not_overflow_int))
