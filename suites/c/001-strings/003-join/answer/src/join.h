#ifndef JOIN_H
#define JOIN_H

#include <stddef.h>

char *str_join(const char *const *parts, size_t count, const char *sep);

#endif
