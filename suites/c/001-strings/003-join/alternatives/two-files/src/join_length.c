#include "join_internal.h"

#include <string.h>

size_t joined_length(const char *const *parts, size_t count, size_t sep_len)
{
    size_t total = count > 1 ? (count - 1) * sep_len : 0;
    for (const char *const *part = parts; part < parts + count; part++) {
        total += strlen(*part);
    }
    return total;
}
