#include "words.h"

#include <stdlib.h>
#include <string.h>

char *str_reverse_words(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(len + 1);
    if (out == NULL) {
        return NULL;
    }
    size_t pos = 0;
    size_t at = 0;
    while (at < len) {
        while (at < len && s[at] == ' ') {
            at++;
        }
        size_t start = at;
        while (at < len && s[at] != ' ') {
            at++;
        }
        if (start == at) {
            break;
        }
        if (pos > 0) {
            out[pos++] = ' ';
        }
        memcpy(out + pos, s + start, at - start);
        pos += at - start;
    }
    out[pos] = '\0';
    return out;
}
