#include "copy.h"

#include <string.h>

size_t str_copy(char *dst, size_t size, const char *src)
{
    size_t len = strlen(src);
    if (size == 0) {
        return len;
    }
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(dst, src, n);
    return len;
}
