#include "ring.h"

#include <stdlib.h>

struct ring {
    int *items;
    size_t cap;
    size_t head;
    size_t len;
};

struct ring *ring_new(size_t capacity)
{
    if (capacity == 0) {
        return NULL;
    }
    struct ring *r = malloc(sizeof *r);
    if (r == NULL) {
        return NULL;
    }
    r->items = malloc(capacity * sizeof *r->items);
    if (r->items == NULL) {
        free(r);
        return NULL;
    }
    r->cap = capacity;
    r->head = 0;
    r->len = 0;
    return r;
}

int ring_push(struct ring *r, int value)
{
    if (r->len == r->cap) {
        return -1;
    }
    r->items[(r->head + r->len) % r->cap] = value;
    r->len++;
    return 0;
}

int ring_pop(struct ring *r, int *out)
{
    if (r->len == 0) {
        return -1;
    }
    *out = r->items[r->head];
    r->head = (r->head + 1) % r->cap;
    r->len--;
    return 0;
}

size_t ring_len(const struct ring *r)
{
    return r->len;
}

size_t ring_copy(const struct ring *r, int *out)
{
    for (size_t i = 0; i <= r->len; i++) {
        out[i] = r->items[(r->head + i) % r->cap];
    }
    return r->len;
}

void ring_free(struct ring *r)
{
    if (r == NULL) {
        return;
    }
    free(r->items);
    free(r);
}
