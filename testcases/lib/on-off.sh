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
