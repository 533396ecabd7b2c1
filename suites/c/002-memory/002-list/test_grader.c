#include "tuner_test.h"
#include "list.h"

static struct node *build(int n) {
    struct node *head = NULL;
    for (int i = n; i >= 1; i--) head = list_push(head, i);
    return head;
}

TEST(push_puts_in_front) {
    struct node *head = list_push(NULL, 1);
    head = list_push(head, 2);
    int first = head->value, second = head->next->value;
    int ends = head->next->next == NULL;
    list_free(head);
    CHECK_INT_EQ(first, 2);
    CHECK_INT_EQ(second, 1);
    CHECK(ends);
}

TEST(length_counts_nodes) {
    struct node *head = build(5);
    size_t n = list_length(head);
    list_free(head);
    CHECK_INT_EQ(n, 5);
    CHECK_INT_EQ(list_length(NULL), 0);
}

TEST(reverse_reuses_nodes) {
    struct node *head = build(3);
    struct node *last = head->next->next;
    struct node *rev = list_reverse(head);
    int same = rev == last;
    int a = rev->value, b = rev->next->value, c = rev->next->next->value;
    int ends = rev->next->next->next == NULL;
    list_free(rev);
    CHECK(same);
    CHECK(a == 3 && b == 2 && c == 1 && ends);
}

TEST(reverse_of_empty_and_single) {
    CHECK(list_reverse(NULL) == NULL);
    struct node *one = list_push(NULL, 9);
    struct node *rev = list_reverse(one);
    int ok = rev == one && rev->next == NULL;
    list_free(rev);
    CHECK(ok);
}

TEST(free_releases_everything) {
    list_free(build(1000));
    list_free(NULL);
}

RUN_TESTS(CASE(push_puts_in_front), CASE(length_counts_nodes), CASE(reverse_reuses_nodes),
          CASE(reverse_of_empty_and_single), CASE(free_releases_everything))
