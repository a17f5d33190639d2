#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make-seeds.sh DIR: a seed corpus for fuzz_parser: the bundled examples
# (includes inlined, since the fuzzer has no include path), the broken
# inputs, and one small ruleset per nftables-py corpus case (every 3rd).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
mkdir -p "$dir"
for f in "$here"/examples/*.nft "$here"/examples/pending/*.nft \
	 "$here"/examples/broken/*.nft; do
	[ -f "$f" ] || continue
	# Replace include lines by the included text.
	awk -v inc="$here/examples/include" '
		/^include "/ { split($0, a, "\""); f = a[2];
			if (f !~ /^\//) f = inc "/" f;
			while ((getline l < f) > 0) print l; close(f); next }
		{ print }' "$f" >"$dir/$(basename "$f")"
done
if command -v python3 >/dev/null 2>&1; then
	python3 "$here/conformance/run-nftables-py" --emit "$dir/corpus.tmp" \
		--sample 3 >/dev/null 2>&1 || true
	if [ -d "$dir/corpus.tmp" ]; then
		for f in "$dir"/corpus.tmp/*.nft; do
			mv "$f" "$dir/t-$(basename "$f")"
		done
		rmdir "$dir/corpus.tmp"
	fi
fi
echo "seeds: $(ls "$dir" | wc -l) files in $dir"
