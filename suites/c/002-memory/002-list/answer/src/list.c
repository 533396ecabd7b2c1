#include "list.h"

#include <stdlib.h>

struct node *list_push(struct node *head, int value)
{
    struct node *n = malloc(sizeof *n);
    if (n == NULL) {
        return NULL;
    }
    n->value = value;
    n->next = head;
    return n;
}

struct node *list_reverse(struct node *head)
{
    struct node *done = NULL;
    while (head != NULL) {
        struct node *next = head->next;
        head->next = done;
        done = head;
        head = next;
    }
    return done;
}

size_t list_length(const struct node *head)
{
    size_t n = 0;
    for (; head != NULL; head = head->next) {
        n++;
    }
    return n;
}

void list_free(struct node *head)
{
    while (head != NULL) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
}
