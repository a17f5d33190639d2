/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Error numbers the VM returns (negated), spelled with Linux's values so
 * that a batch rejected by the VM and by the kernel yields the same errno
 * in both the userspace library and the kernel module.
 */
#ifndef NFTVM_ERRNO_H
#define NFTVM_ERRNO_H

#define NFTVM_ENOENT		2
#define NFTVM_E2BIG		7
#define NFTVM_ENOMEM		12
#define NFTVM_EBUSY		16
#define NFTVM_EEXIST		17
#define NFTVM_EINVAL		22
#define NFTVM_ENFILE		23
#define NFTVM_EFBIG		27
#define NFTVM_ENOSPC		28
#define NFTVM_EMLINK		31
#define NFTVM_ERANGE		34
#define NFTVM_ENAMETOOLONG	36
#define NFTVM_ENOTEMPTY		39
#define NFTVM_ELOOP		40
#define NFTVM_EMFILE		24
#define NFTVM_EPROTONOSUPPORT	93
#define NFTVM_EOPNOTSUPP	95
#define NFTVM_EAFNOSUPPORT	97
#define NFTVM_ERESTART		85
#define NFTVM_EOVERFLOW		75
#define NFTVM_ECANCELED		125

#endif /* NFTVM_ERRNO_H */
