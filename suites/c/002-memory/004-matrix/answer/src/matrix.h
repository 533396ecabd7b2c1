#ifndef MATRIX_H
#define MATRIX_H

#include <stddef.h>

double *mat_mul(const double *a, const double *b, size_t n, size_t m, size_t p);
double *mat_transpose(const double *a, size_t rows, size_t cols);

#endif
