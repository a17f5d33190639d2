/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef NFTC_LIST_H
#define NFTC_LIST_H

#include <stddef.h>
#include <stdbool.h>

/**
 * struct list_head - intrusive doubly linked circular list node
 *
 * Every IR container (rule statements, concat members, set elements,
 * table objects) links its children through one of these.
 */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

static inline void init_list_head(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void list_insert_between(struct list_head *n,
				       struct list_head *prev,
				       struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	list_insert_between(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	list_insert_between(n, head->prev, head);
}

static inline void list_del(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	entry->next = entry;
	entry->prev = entry;
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

/* Move every node of @list to the tail of @head, leaving @list empty. */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (list_empty(list))
		return;
	list->next->prev = head->prev;
	head->prev->next = list->next;
	list->prev->next = head;
	head->prev = list->prev;
	init_list_head(list);
}

/* Replace @old by @n in its list. */
static inline void list_replace(struct list_head *old, struct list_head *n)
{
	n->next = old->next;
	n->next->prev = n;
	n->prev = old->prev;
	n->prev->next = n;
	init_list_head(old);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)
#define list_last_entry(head, type, member) \
	list_entry((head)->prev, type, member)
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each_entry(pos, head, member)				\
	for (pos = list_entry((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_entry((head)->next, __typeof__(*pos), member),	\
	     n = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != (head);					\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

static inline unsigned int list_count(const struct list_head *head)
{
	const struct list_head *p;
	unsigned int n = 0;

	for (p = head->next; p != head; p = p->next)
		n++;
	return n;
}

#endif
