#ifndef COPY_H
#define COPY_H

#include <stddef.h>

size_t str_copy(char *dst, size_t size, const char *src);

#endif
