#ifndef JOIN_INTERNAL_H
#define JOIN_INTERNAL_H

#include <stddef.h>

size_t joined_length(const char *const *parts, size_t count, size_t sep_len);

#endif
