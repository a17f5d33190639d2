# SPDX-License-Identifier: GPL-2.0-or-later
#
# The real-world iptables-save corpus ($NFTKIT_SHARED/realworld) as the
# tests that walk it file by file read it, sourced with $dir the corpus:
#	. "${srcdir:-$(dirname "$0")/..}/lib/realworld.sh"
#	for f in "$dir"/*.rules; do
#		rw_pick "$f" || continue
#  rw_pick FILE		false for a .fixed variant (it stands in for its
#			original); else sets name (the file's, without
#			.rules), f (its .fixed variant where there is one)
#			and fam ("-6" for the manifest's v6 files, else
#			empty). Sourcing it runs nothing.

rw_pick() {
	case $1 in *.fixed.rules) return 1 ;; esac
	name=$(basename "$1" .rules)
	f=$1
	[ -f "$dir/$name.fixed.rules" ] && f=$dir/$name.fixed.rules
	fam=
	awk -F'\t' -v n="$name" '$1 == n && $6 == "v6" { f = 1 } END { exit !f }' \
		"$dir/manifest.tsv" 2>/dev/null && fam=-6
	return 0
}
