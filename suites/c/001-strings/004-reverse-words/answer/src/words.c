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
    size_t end = len;
    while (end > 0) {
        while (end > 0 && s[end - 1] == ' ') {
            end--;
        }
        size_t start = end;
        while (start > 0 && s[start - 1] != ' ') {
            start--;
        }
        if (start == end) {
            break;
        }
        if (pos > 0) {
            out[pos++] = ' ';
        }
        memcpy(out + pos, s + start, end - start);
        pos += end - start;
        end = start;
    }
    out[pos] = '\0';
    return out;
}
