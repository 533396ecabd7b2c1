#include "join.h"

#include <stdlib.h>
#include <string.h>

char *str_join(const char *const *parts, size_t count, const char *sep)
{
    size_t sep_len = strlen(sep);
    size_t len = 0;
    for (size_t k = 0; k < count; k++) {
        len += strlen(parts[k]) + (k > 0 ? sep_len : 0);
    }
    char *out = malloc(len + 1);
    if (out == NULL) {
        return NULL;
    }
    size_t pos = 0;
    for (size_t k = 0; k < count; k++) {
        if (k > 0) {
            memcpy(out + pos, sep, sep_len);
            pos += sep_len;
        }
        size_t part_len = strlen(parts[k]);
        memcpy(out + pos, parts[k], part_len);
        pos += part_len;
    }
    out[pos] = '\0';
    return out;
}
