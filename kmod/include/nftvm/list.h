/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nftvm_list: a circular doubly linked list with a sentinel head. */
#ifndef NFTVM_LIST_H
#define NFTVM_LIST_H

#include <nftvm/compat.h>

struct nftvm_list {
	struct nftvm_list *next, *prev;
};

#define NFTVM_LIST_INIT(name)	{ &(name), &(name) }

static inline void nftvm_list_init(struct nftvm_list *h)
{
	h->next = h;
	h->prev = h;
}

static inline int nftvm_list_empty(const struct nftvm_list *h)
{
	return h->next == h;
}

/* Insert @n right after @pos. */
static inline void nftvm_list_add_after(struct nftvm_list *n,
					struct nftvm_list *pos)
{
	n->prev = pos;
	n->next = pos->next;
	pos->next->prev = n;
	pos->next = n;
}

static inline void nftvm_list_add(struct nftvm_list *n, struct nftvm_list *h)
{
	nftvm_list_add_after(n, h);
}

static inline void nftvm_list_add_tail(struct nftvm_list *n,
				       struct nftvm_list *h)
{
	nftvm_list_add_after(n, h->prev);
}

static inline void nftvm_list_del(struct nftvm_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n;
	n->prev = n;
}

#define nftvm_list_entry(ptr, type, member) \
	nftvm_container_of(ptr, type, member)

#define nftvm_list_for_each_entry(pos, head, member)			\
	for (pos = nftvm_list_entry((head)->next, __typeof__(*pos), member); \
	     &pos->member != (head);					\
	     pos = nftvm_list_entry(pos->member.next, __typeof__(*pos), member))

#define nftvm_list_for_each_entry_reverse(pos, head, member)		\
	for (pos = nftvm_list_entry((head)->prev, __typeof__(*pos), member); \
	     &pos->member != (head);					\
	     pos = nftvm_list_entry(pos->member.prev, __typeof__(*pos), member))

#define nftvm_list_for_each_entry_safe(pos, tmp, head, member)		\
	for (pos = nftvm_list_entry((head)->next, __typeof__(*pos), member), \
	     tmp = nftvm_list_entry(pos->member.next, __typeof__(*pos),	\
				    member);				\
	     &pos->member != (head);					\
	     pos = tmp,							\
	     tmp = nftvm_list_entry(tmp->member.next, __typeof__(*tmp), member))

#endif /* NFTVM_LIST_H */
