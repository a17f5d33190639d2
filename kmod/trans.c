// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transaction log: every change a batch makes is applied at once and
 * logged; commit makes the batch final (frees what was deleted, bumps the
 * generation), abort undoes the log in reverse order so that each undo
 * finds the ruleset exactly as its change left it.  Object code never
 * deals with commit or abort itself.
 */
#include "nftvm_int.h"

int nftvm_trans_add(struct nftvm_ctx *ctx, enum nftvm_trans_type type,
		    void *obj, void *owner, struct nftvm_list *prev)
{
	struct nftvm_trans *t = nftvm_alloc(sizeof(*t));

	if (!t)
		return -NFTVM_ENOMEM;
	t->type = (__u8)type;
	t->obj = obj;
	t->owner = owner;
	t->prev = prev;
	nftvm_list_add_tail(&t->list, &ctx->vm->trans);
	return 0;
}

struct nftvm_trans *nftvm_trans_last(struct nftvm *vm)
{
	if (nftvm_list_empty(&vm->trans))
		return NULL;
	return nftvm_list_entry(vm->trans.prev, struct nftvm_trans, list);
}

static int nftvm_elem_hold_fn(const struct nftvm_set *set,
			      struct nftvm_elem *e, void *arg)
{
	struct nftvm_data d = { .verdict = e->verdict };

	if (!(e->flags & NFT_SET_ELEM_INTERVAL_END))
		nftvm_data_hold(&d, set->dtype);
	if (e->obj)
		e->obj->use++;
	return 0;
}

static void nftvm_trans_commit_one(struct nftvm *vm, struct nftvm_trans *t)
{
	struct nftvm_ctx ctx = { .vm = vm };

	switch ((enum nftvm_trans_type)t->type) {
	case NFTVM_TRANS_NEWTABLE:
		((struct nftvm_table *)t->obj)->is_new = false;
		break;
	case NFTVM_TRANS_DELTABLE:
		nftvm_table_free(t->obj);
		break;
	case NFTVM_TRANS_UPDTABLE:
	case NFTVM_TRANS_UPDCHAIN:
		nftvm_chain_stats_commit(t->obj);
		break;
	case NFTVM_TRANS_NEWELEM:
		break;
	case NFTVM_TRANS_NEWCHAIN:
		((struct nftvm_chain *)t->obj)->is_new = false;
		break;
	case NFTVM_TRANS_DELCHAIN:
		nftvm_chain_free(t->obj);
		break;
	case NFTVM_TRANS_NEWRULE:
		((struct nftvm_rule *)t->obj)->is_new = false;
		break;
	case NFTVM_TRANS_DELRULE:
		nftvm_rule_free(&ctx, t->obj);
		break;
	case NFTVM_TRANS_NEWSET:
		((struct nftvm_set *)t->obj)->is_new = false;
		break;
	case NFTVM_TRANS_DELSET:
		nftvm_set_free(t->obj);
		break;
	case NFTVM_TRANS_DELELEM:
		nftvm_elem_free(t->owner, t->obj);
		break;
	case NFTVM_TRANS_NEWOBJ:
		((struct nftvm_obj *)t->obj)->is_new = false;
		break;
	case NFTVM_TRANS_DELOBJ:
		nftvm_obj_free(t->obj);
		break;
	case NFTVM_TRANS_UPDOBJ:
		/* an update takes effect at commit, as the kernel's */
		((struct nftvm_obj *)t->obj)->type->update(t->obj, t->owner);
		nftvm_obj_free(t->owner);
		break;
	case __NFTVM_TRANS_MAX:
		break;
	}
}

static void nftvm_trans_undo_one(struct nftvm *vm, struct nftvm_trans *t)
{
	struct nftvm_ctx ctx = { .vm = vm };
	struct nftvm_table *table;
	struct nftvm_chain *chain;
	struct nftvm_rule *rule;
	struct nftvm_set *set;
	struct nftvm_elem *e, *dup;

	switch ((enum nftvm_trans_type)t->type) {
	case NFTVM_TRANS_NEWTABLE:
		table = t->obj;
		nftvm_list_del(&table->list);
		nftvm_table_free(table);
		break;
	case NFTVM_TRANS_DELTABLE:
		table = t->obj;
		nftvm_list_add_after(&table->list, t->prev);
		break;
	case NFTVM_TRANS_UPDTABLE:
		((struct nftvm_table *)t->obj)->flags = t->old[0];
		break;
	case NFTVM_TRANS_NEWCHAIN:
		chain = t->obj;
		nftvm_list_del(&chain->list);
		nftvm_chain_free(chain);
		break;
	case NFTVM_TRANS_DELCHAIN:
		chain = t->obj;
		nftvm_list_add_after(&chain->list, t->prev);
		break;
	case NFTVM_TRANS_UPDCHAIN:
		((struct nftvm_chain *)t->obj)->policy = t->old[0];
		((struct nftvm_chain *)t->obj)->stats_pending = false;
		break;
	case NFTVM_TRANS_NEWRULE:
		rule = t->obj;
		nftvm_list_del(&rule->list);
		ctx.table = rule->chain->table;
		nftvm_rule_deactivate(&ctx, rule);
		nftvm_rule_free(&ctx, rule);
		break;
	case NFTVM_TRANS_DELRULE:
		rule = t->obj;
		ctx.table = rule->chain->table;
		nftvm_rule_activate(&ctx, rule);
		nftvm_list_add_after(&rule->list, t->prev);
		break;
	case NFTVM_TRANS_NEWSET:
		set = t->obj;
		nftvm_list_del(&set->list);
		nftvm_set_free(set);
		break;
	case NFTVM_TRANS_DELSET:
		set = t->obj;
		nftvm_list_add_after(&set->list, t->prev);
		set->type->walk(set, nftvm_elem_hold_fn, NULL);
		if (set->catchall)
			nftvm_elem_hold_fn(set, set->catchall, NULL);
		break;
	case NFTVM_TRANS_NEWELEM:
		set = t->owner;
		e = t->obj;
		if (e->flags & NFT_SET_ELEM_CATCHALL)
			set->catchall = NULL;
		else
			set->type->remove(set, e);
		set->nelems -= !(e->flags & NFT_SET_ELEM_CATCHALL);
		if (!(e->flags & NFT_SET_ELEM_INTERVAL_END)) {
			struct nftvm_data d = { .verdict = e->verdict };

			nftvm_data_release(&d, set->dtype);
		}
		if (e->obj)
			e->obj->use--;
		nftvm_elem_free(set, e);
		break;
	case NFTVM_TRANS_DELELEM:
		set = t->owner;
		e = t->obj;
		if (e->flags & NFT_SET_ELEM_CATCHALL) {
			set->catchall = e;
		} else {
			/* cannot fail: the slot was freed by the deletion */
			dup = NULL;
			set->type->insert(set, e, NULL, &dup);
			set->nelems++;
		}
		nftvm_elem_hold_fn(set, e, NULL);
		break;
	case NFTVM_TRANS_NEWOBJ:
		nftvm_list_del(&((struct nftvm_obj *)t->obj)->list);
		nftvm_obj_free(t->obj);
		break;
	case NFTVM_TRANS_DELOBJ:
		nftvm_list_add_after(&((struct nftvm_obj *)t->obj)->list,
				     t->prev);
		break;
	case NFTVM_TRANS_UPDOBJ:
		nftvm_obj_free(t->owner);
		break;
	case __NFTVM_TRANS_MAX:
		break;
	}
}

/**
 * nftvm_trans_commit - make the logged changes final
 *
 * Bumps the generation id when anything changed and rebuilds the hook
 * lists when base chains or tables changed.
 */
void nftvm_trans_commit(struct nftvm *vm)
{
	struct nftvm_trans *t, *tmp;
	bool changed = !nftvm_list_empty(&vm->trans);

	nftvm_list_for_each_entry_safe(t, tmp, &vm->trans, list) {
		nftvm_trans_commit_one(vm, t);
		nftvm_list_del(&t->list);
		nftvm_free(t);
	}
	if (changed)
		vm->genid++;
	if (vm->hooks_dirty)
		nftvm_hooks_rebuild(vm);
}

/** nftvm_trans_abort - undo the logged changes, newest first */
void nftvm_trans_abort(struct nftvm *vm)
{
	struct nftvm_trans *t;

	while ((t = nftvm_trans_last(vm)) != NULL) {
		nftvm_trans_undo_one(vm, t);
		nftvm_list_del(&t->list);
		nftvm_free(t);
	}
	vm->hooks_dirty = false;
}
