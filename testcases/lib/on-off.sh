# SPDX-License-Identifier: GPL-2.0-or-later
#
# For the offline tests that prove a short cut changes nothing
# (offline/elem-scan.sh, offline/rule-memo.sh), sourced with NFT (ours)
# and work (a temporary directory) set:
#  same_on_off SWITCH WHAT FILE ARG...
#	"$NFT" ARG... -c --debug=netlink -f FILE, offline, once with the
#	environment variable SWITCH=0 (short cut off) and once as is; the
#	exit status, the batch printed and the messages must be the same.
#	Sets $on to the exit status with the short cut; on a difference
#	prints "FAIL: FILE ..." and both diffs and returns 1.
#  same_batch_on_off SWITCH WHAT FILE ARG...
#	The same without --debug=netlink (which makes short cuts that
#	would print objects from bytes step aside): the streamed batch's
#	bytes (NFTKIT_BATCH_DUMP), the exit status and the messages; once
#	with NFTKIT_OFFLINE_CHECK (anonymous sets "__set%d") and once
#	checked against an empty offline VM (--offline: their names are
#	chosen, nftc/anon_names.h).

same_on_off() {
	_sw=$1 _what=$2 _f=$3
	shift 3
	env NFTKIT_OFFLINE_CHECK=1 "$_sw=0" \
		"$NFT" "$@" -c --debug=netlink -f "$_f" > "$work/off.out" \
		2> "$work/off.err"
	_off=$?
	NFTKIT_OFFLINE_CHECK=1 \
		"$NFT" "$@" -c --debug=netlink -f "$_f" > "$work/on.out" \
		2> "$work/on.err"
	on=$?
	if [ "$on" != "$_off" ] || ! cmp -s "$work/on.out" "$work/off.out" ||
	   ! cmp -s "$work/on.err" "$work/off.err"; then
		echo "FAIL: $(basename "$_f"): exit $on, $_off without the $_what"
		diff "$work/off.err" "$work/on.err" | head -10
		diff "$work/off.out" "$work/on.out" | head -20
		return 1
	fi
	return 0
}

same_batch_on_off() {
	_sw=$1 _what=$2 _f=$3
	shift 3
	# "__set%d" (-c alone, NFTKIT_OFFLINE_CHECK), then names of
	# anonymous sets chosen (nftc/anon_names.h: an empty offline VM)
	for _mode in check vm; do
		_batch_on_off "$_mode" "$@" || return 1
	done
	return 0
}

# _batch_on_off MODE ARG...: one comparison of same_batch_on_off
_batch_on_off() {
	_m=$1
	shift
	if [ "$_m" = vm ]; then
		set -- --offline "$work/vm.state" "$@"
		_chk=
	else
		_chk=1
	fi
	rm -f "$work/off.batch" "$work/on.batch" "$work/vm.state"
	env ${_chk:+NFTKIT_OFFLINE_CHECK=1} "$_sw=0" \
		NFTKIT_BATCH_DUMP="$work/off.batch" \
		"$NFT" "$@" -c -f "$_f" > "$work/off.out" 2> "$work/off.err"
	_off=$?
	rm -f "$work/vm.state"
	env ${_chk:+NFTKIT_OFFLINE_CHECK=1} NFTKIT_BATCH_DUMP="$work/on.batch" \
		"$NFT" "$@" -c -f "$_f" > "$work/on.out" 2> "$work/on.err"
	_on=$?
	[ -f "$work/off.batch" ] || : > "$work/off.batch"
	[ -f "$work/on.batch" ] || : > "$work/on.batch"
	if [ "$_on" != "$_off" ] ||
	   ! cmp -s "$work/on.batch" "$work/off.batch" ||
	   ! cmp -s "$work/on.err" "$work/off.err"; then
		echo "FAIL: $(basename "$_f") ($_m): batch bytes, exit $_on, $_off without the $_what"
		cmp "$work/off.batch" "$work/on.batch"
		diff "$work/off.err" "$work/on.err" | head -10
		return 1
	fi
	return 0
}
