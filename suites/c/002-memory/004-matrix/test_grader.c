#include "tuner_test.h"
#include "matrix.h"

static int same(const double *got, const double *want, size_t count) {
    if (got == NULL) return 0;
    for (size_t k = 0; k < count; k++)
        if (got[k] != want[k]) return 0;
    return 1;
}

TEST(multiplies_two_by_three_by_two) {
    const double a[] = {1, 2, 3, 4, 5, 6};
    const double b[] = {7, 8, 9, 10, 11, 12};
    const double want[] = {58, 64, 139, 154};
    double *c = mat_mul(a, b, 2, 3, 2);
    int ok = same(c, want, 4);
    free(c);
    CHECK(ok);
}

TEST(identity_keeps_the_matrix) {
    const double a[] = {1.5, -2, 0, 4};
    const double id[] = {1, 0, 0, 1};
    double *c = mat_mul(a, id, 2, 2, 2);
    int ok = same(c, a, 4);
    free(c);
    CHECK(ok);
}

TEST(row_times_column) {
    const double a[] = {1, 2, 3};
    const double b[] = {4, 5, 6};
    const double want[] = {32};
    double *c = mat_mul(a, b, 1, 3, 1);
    int ok = same(c, want, 1);
    free(c);
    CHECK(ok);
}

TEST(transposes) {
    const double a[] = {1, 2, 3, 4, 5, 6};
    const double want[] = {1, 4, 2, 5, 3, 6};
    double *t = mat_transpose(a, 2, 3);
    int ok = same(t, want, 6);
    free(t);
    CHECK(ok);
}

TEST(zero_dimension_gives_null) {
    const double a[] = {1};
    CHECK(mat_mul(a, a, 0, 1, 1) == NULL);
    CHECK(mat_mul(a, a, 1, 1, 0) == NULL);
    CHECK(mat_transpose(a, 1, 0) == NULL);
}

RUN_TESTS(CASE(multiplies_two_by_three_by_two), CASE(identity_keeps_the_matrix), CASE(row_times_column),
          CASE(transposes), CASE(zero_dimension_gives_null))
