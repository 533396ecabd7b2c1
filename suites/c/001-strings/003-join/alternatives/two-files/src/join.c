#include "join.h"
#include "join_internal.h"

#include <stdlib.h>
#include <string.h>

char *str_join(const char *const *parts, size_t count, const char *sep)
{
    size_t size = joined_length(parts, count, strlen(sep)) + 1;
    char *out = calloc(size, 1);
    if (!out) {
        return NULL;
    }
    for (size_t k = 0; k < count; k++) {
        if (k) {
            strcat(out, sep);
        }
        strcat(out, parts[k]);
    }
    return out;
}
