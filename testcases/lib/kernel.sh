# SPDX-License-Identifier: GPL-2.0-or-later
#
# The preamble the kernel tests (kernel/*.sh) share, sourced after
# `set -u` with srcdir the testcases folder:
#	. "$srcdir/lib/kernel.sh"
# It sets SKIP (77), STOCK (stock nft, the oracle) and NFT (ours, from
# the environment, may be empty) and defines:
#  need_nfts		skip unless ours and stock nft are executable;
#  need_cmd CMD...	skip unless every CMD is on PATH;
#  need_netns		skip unless stock nft can list in a private network
#			namespace (root and nf_tables); then unsets
#			NFTKIT_OFFLINE_CHECK ("make check" sets it): a
#			kernel test's "nft -c" checks against the kernel;
#  need_kernel CMD...	all three: need_nfts, need_cmd CMD..., need_netns;
#  make_work		$work, a temporary directory removed on exit;
#  emit_cases RE ARG...	the cases of the nftables-py corpus in $SHARED,
#			one file each (run-nftables-py --emit ARG...),
#			into $work/cases, the names matching RE listed
#			in $work/list; skip when there are none;
#  run_err TAG CMD...	CMD in a private namespace: its stderr in
#			$work/TAG.err, its exit status in $work/TAG.rc,
#			the ruleset it left (listed by stock) in
#			$work/TAG.left; stdin and stdout are the caller's;
#  same_err TAG REF	unless TAG's errors and exit status are REF's,
#			say so with a diff and set fail=1;
#  none_left TAG...	fail=1 for each TAG that left a ruleset.
# Sourcing it runs nothing; a skip prints why and exits 77.

SKIP=77
STOCK=/usr/sbin/nft
NFT=${NFT:-}

need_nfts() {
	[ -n "$NFT" ] && [ -x "$NFT" ] || { echo "no NFT binary"; exit $SKIP; }
	[ -x "$STOCK" ] || { echo "no stock nft"; exit $SKIP; }
}

need_cmd() {
	for _cmd in "$@"; do
		command -v "$_cmd" >/dev/null 2>&1 || {
			echo "no $_cmd"; exit $SKIP; }
	done
}

need_netns() {
	unshare -n "$STOCK" list ruleset >/dev/null 2>&1 || {
		echo "no root/nf_tables in a private netns"; exit $SKIP; }
	unset NFTKIT_OFFLINE_CHECK
}

need_kernel() {
	need_nfts
	need_cmd "$@"
	need_netns
}

make_work() {
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
}

emit_cases() {
	_re=$1
	shift
	"$srcdir/conformance/run-nftables-py" --corpus \
		"$SHARED/conformance/nftables-py" --emit "$work/cases" "$@" \
		>/dev/null 2>&1 || true
	ls "$work/cases" 2>/dev/null | grep -- "$_re" > "$work/list" || true
	[ -s "$work/list" ] || { echo "no cases emitted"; exit $SKIP; }
}

run_err() {
	_tag=$1
	shift
	unshare -n sh -c '"$@" 2> "$0.err"; echo $? > "$0.rc";
		'"$STOCK"' list ruleset > "$0.left"' "$work/$_tag" "$@"
}

same_err() {
	cmp -s "$work/$2.err" "$work/$1.err" &&
		cmp -s "$work/$2.rc" "$work/$1.rc" && return 0
	echo "FAIL: $1: not $2's errors"
	diff "$work/$2.err" "$work/$1.err" | head -10
	fail=1
}

none_left() {
	for _tag in "$@"; do
		[ -s "$work/$_tag.left" ] &&
			{ echo "FAIL: $_tag left a ruleset"; fail=1; }
	done
}
