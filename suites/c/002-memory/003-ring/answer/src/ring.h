#ifndef RING_H
#define RING_H

#include <stddef.h>

struct ring;

struct ring *ring_new(size_t capacity);
int ring_push(struct ring *r, int value);
int ring_pop(struct ring *r, int *out);
size_t ring_len(const struct ring *r);
size_t ring_copy(const struct ring *r, int *out);
void ring_free(struct ring *r);

#endif
