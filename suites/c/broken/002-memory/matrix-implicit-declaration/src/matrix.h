#ifndef MATRIX_H
#define MATRIX_H

#include <stddef.h>

double *mat_mul(const double *a, const double *b, size_t n, size_t m, size_t p);

#endif
