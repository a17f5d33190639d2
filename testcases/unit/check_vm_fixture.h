/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fixture of the VM tests that need nothing but the VM: a fresh
 * libnftvm instance in @vm for every test, given to Check with
 * tcase_add_checked_fixture(tc, setup, teardown).  Included by one test
 * file each, after check_vm_common.h or check_vm_exprs.h.
 */
#ifndef CHECK_VM_FIXTURE_H
#define CHECK_VM_FIXTURE_H

#include "check_vm_common.h"

static struct nftvm *vm;

static void setup(void)
{
	vm = nftvm_new();
	ck_assert_ptr_nonnull(vm);
}

static void teardown(void)
{
	nftvm_destroy(vm);
	vm = NULL;
}

#endif
