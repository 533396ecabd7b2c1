#include "matrix.h"

#include <stdlib.h>

double *mat_mul(const double *a, const double *b, size_t n, size_t m, size_t p)
{
    if (n == 0 || m == 0 || p == 0) {
        return NULL;
    }
    double *c = malloc(n * p * sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < p; j++) {
            double sum = 0.0;
            for (size_t k = 0; k < m; k++) {
                sum += a[i * m + k] * b[k * p + j];
            }
            c[i * p + j] = sum;
        }
    }
    return c;
}

double *mat_transpose(const double *a, size_t rows, size_t cols)
{
    if (rows == 0 || cols == 0) {
        return NULL;
    }
    double *t = malloc(rows * cols * sizeof *t);
    if (t == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < rows; i++) {
        for (size_t j = 0; j < cols; j++) {
            t[j * cols + i] = a[i * cols + j];
        }
    }
    return t;
}
