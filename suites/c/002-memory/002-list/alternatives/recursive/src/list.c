#include "list.h"

#include <stdlib.h>

struct node *list_push(struct node *head, int value)
{
    struct node *n = malloc(sizeof(struct node));
    if (!n) {
        return NULL;
    }
    *n = (struct node){.value = value, .next = head};
    return n;
}

static struct node *reverse_onto(struct node *head, struct node *done)
{
    if (!head) {
        return done;
    }
    struct node *rest = head->next;
    head->next = done;
    return reverse_onto(rest, head);
}

struct node *list_reverse(struct node *head)
{
    return reverse_onto(head, NULL);
}

size_t list_length(const struct node *head)
{
    return head ? 1 + list_length(head->next) : 0;
}

void list_free(struct node *head)
{
    if (head) {
        list_free(head->next);
        free(head);
    }
}
