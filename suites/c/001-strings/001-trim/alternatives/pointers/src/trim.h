#ifndef TRIM_H
#define TRIM_H

char *str_trim(char *s);

#endif
