#ifndef VEC_H
#define VEC_H

#include <stddef.h>

struct int_vec {
    int *data;
    size_t len;
    size_t cap;
};

void vec_init(struct int_vec *v);
int vec_push(struct int_vec *v, int value);
long long vec_sum(const struct int_vec *v);
void vec_free(struct int_vec *v);

#endif
