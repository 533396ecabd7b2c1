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
    memmove(s, start, len);
    s[len] = '\0';
    return s;
}
