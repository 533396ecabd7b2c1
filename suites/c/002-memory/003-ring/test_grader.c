#include "tuner_test.h"
#include "ring.h"

TEST(zero_capacity_is_refused) { CHECK(ring_new(0) == NULL); ring_free(NULL); }

TEST(first_in_first_out) {
    struct ring *r = ring_new(3);
    CHECK(r != NULL);
    int a = -1, b = -1;
    int pushed = ring_push(r, 1) == 0 && ring_push(r, 2) == 0;
    int popped = ring_pop(r, &a) == 0 && ring_pop(r, &b) == 0;
    int empty = ring_pop(r, &a) == -1 && ring_len(r) == 0;
    ring_free(r);
    CHECK(pushed && popped && empty);
    CHECK_INT_EQ(a, 1);
    CHECK_INT_EQ(b, 2);
}

TEST(full_ring_refuses_push) {
    struct ring *r = ring_new(2);
    ring_push(r, 1);
    ring_push(r, 2);
    int refused = ring_push(r, 3);
    size_t len = ring_len(r);
    int first = 0;
    ring_pop(r, &first);
    ring_free(r);
    CHECK_INT_EQ(refused, -1);
    CHECK_INT_EQ(len, 2);
    CHECK_INT_EQ(first, 1);
}

TEST(wraps_around) {
    struct ring *r = ring_new(3);
    int v = 0, ok = 1;
    for (int i = 0; i < 10; i++) {
        ok = ok && ring_push(r, i) == 0 && ring_pop(r, &v) == 0 && v == i;
    }
    ring_free(r);
    CHECK(ok);
}

TEST(copy_is_oldest_first_and_exact) {
    struct ring *r = ring_new(4);
    int v;
    for (int i = 1; i <= 4; i++) ring_push(r, i);
    ring_pop(r, &v);
    ring_pop(r, &v);
    ring_push(r, 5);
    int *out = malloc(3 * sizeof *out);
    size_t n = ring_copy(r, out);
    int ok = n == 3 && out[0] == 3 && out[1] == 4 && out[2] == 5 && ring_len(r) == 3;
    free(out);
    ring_free(r);
    CHECK(ok);
}

RUN_TESTS(CASE(zero_capacity_is_refused), CASE(first_in_first_out), CASE(full_ring_refuses_push),
          CASE(wraps_around), CASE(copy_is_oldest_first_and_exact))
