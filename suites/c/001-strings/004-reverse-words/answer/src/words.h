#ifndef WORDS_H
#define WORDS_H

char *str_reverse_words(const char *s);

#endif
