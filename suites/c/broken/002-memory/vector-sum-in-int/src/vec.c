#include "vec.h"

#include <stdlib.h>

void vec_init(struct int_vec *v)
{
    v->data = NULL;
    v->len = 0;
    v->cap = 0;
}

int vec_push(struct int_vec *v, int value)
{
    if (v->len == v->cap) {
        size_t cap = v->cap == 0 ? 4 : v->cap * 2;
        int *data = realloc(v->data, cap * sizeof *data);
        if (data == NULL) {
            return -1;
        }
        v->data = data;
        v->cap = cap;
    }
    v->data[v->len] = value;
    v->len++;
    return 0;
}

long long vec_sum(const struct int_vec *v)
{
    int sum = 0;
    for (size_t i = 0; i < v->len; i++) {
        sum += v->data[i];
    }
    return sum;
}

void vec_free(struct int_vec *v)
{
    free(v->data);
    vec_init(v);
}
