#include "trim.h"

#include <ctype.h>
#include <string.h>

char *str_trim(char *s)
{
    const char *start = s;
    while (*start != '\0' && isspace((unsigned char)*start)) {
        start++;
    }
    size_t len = strlen(start);
    while (len > 0 && isspace((unsigned char)start[len - 1])) {
        len--;
    }
    memmove(s, start, len);
    s[len] = '\0';
    return s;
}
