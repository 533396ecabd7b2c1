#include "trim.h"

#include <ctype.h>
#include <stddef.h>

char *str_trim(char *s)
{
    char *read = s;
    char *write = s;
    char *last = NULL;
    while (*read && isspace((unsigned char)*read)) {
        ++read;
    }
    while (*read) {
        if (!isspace((unsigned char)*read)) {
            last = write;
        }
        *write++ = *read++;
    }
    if (last) {
        last[1] = '\0';
    } else {
        *s = '\0';
    }
    return s;
}
