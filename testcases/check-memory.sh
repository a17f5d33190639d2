#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Memory and robustness checks of our `nft -c -f`:
#  1. the bundled examples and a sample of corpus rules under valgrind
#     (leaks and memory errors fail the test; skipped without valgrind);
#  2. a corpus of broken inputs (examples/broken/*.nft and generated
#     ones: deep nesting, garbage bytes, NUL bytes, huge tokens), each of
#     which must be rejected with exit status 1 and a located message with
#     carets, never a crash or hang (also under valgrind when present).
# Options (environment): MEMCHECK_SAMPLE=N takes every Nth corpus case
# (default 60; 0 skips the corpus sample), NO_VALGRIND=1 runs without it.
set -u
# Inputs that still expose a known, reported bug: their failure is
# printed but not fatal (so that one open bug does not block every other
# change); once one passes, the script says so: remove it from the list.
KNOWN_BUGS=${KNOWN_BUGS-""}
here=${srcdir:-$(dirname "$0")}
NFT=${NFT:-../nftc/nft}
export TZ=UTC LC_ALL=C
[ -x "$NFT" ] || { echo "SKIP: our nft ($NFT) not built"; exit 77; }

vg=""
if grep -q __asan_init "$NFT" 2>/dev/null; then
	# An --enable-asan build checks itself; valgrind cannot run it.
	echo "note: $NFT is an ASan build; sanitizer reports count as crashes"
	NO_VALGRIND=1
fi
if [ "${NO_VALGRIND:-0}" != 1 ] && command -v valgrind >/dev/null 2>&1; then
	# 99: valgrind found an error, distinct from nft's own exit codes.
	vg="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect"
	vg="$vg --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
else
	echo "note: valgrind not used; crash/exit checks only"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

known=0
cur=""
is_known() {
	for k in $KNOWN_BUGS; do
		[ "$k" = "$cur" ] && return 0
	done
	return 1
}
ok() {
	pass=$((pass + 1))
	if is_known; then
		echo "note: $cur passes now: remove it from KNOWN_BUGS"
	fi
}
bad() {
	if is_known; then
		echo "KNOWN BUG (not fatal): $*"
		sed 's/^/  | /' "$tmp/err" | head -12
		known=$((known + 1))
		return
	fi
	echo "FAIL: $*"
	sed 's/^/  | /' "$tmp/err" | head -30
	fail=$((fail + 1))
}

# run FILE: sets rc, stderr in $tmp/err
run() {
	cur=$(basename "$1")
	# timeout: a hang is a failure too (124)
	timeout 120 $vg "$NFT" -I "$here/examples/include" -c -f "$1" \
		>/dev/null 2>"$tmp/err"
	rc=$?
}

# A crash, hang, sanitizer report, or any valgrind report (with -q it
# prints only errors, as "==PID== ..."; when the heap is corrupted badly
# enough valgrind itself dies and the exit status is not 99).
crashed() {
	[ "$rc" -ge 124 ] || [ "$rc" = 99 ] ||
		grep -q 'AddressSanitizer\|runtime error:\|LeakSanitizer' "$tmp/err" ||
		{ [ -n "$vg" ] && grep -q '^==[0-9]*==' "$tmp/err"; }
}

# 1a. examples: must load and be clean.
for f in "$here"/examples/*.nft; do
	run "$f"
	if [ "$rc" = 0 ]; then ok
	else bad "example $(basename "$f"): exit $rc"; fi
done

# 1b. a sample of the conformance corpus: any verdict, but clean.
sample=${MEMCHECK_SAMPLE:-60}
if [ "$sample" != 0 ] && command -v python3 >/dev/null 2>&1 &&
   python3 "$here/conformance/run-nftables-py" --emit "$tmp/corpus" \
	--sample "$sample" >/dev/null 2>&1; then
	for f in "$tmp"/corpus/*.nft; do
		run "$f"
		if crashed; then bad "corpus $(sed -n 1p "$f"): exit $rc"
		else ok; fi
	done
else
	echo "note: corpus sample skipped (no python3 or no corpus)"
fi

# 2a. broken inputs: exit 1, FILE:LINE:COL message, carets, no crash.
for f in "$here"/examples/broken/*.nft; do
	name=$(basename "$f")
	run "$f"
	if crashed; then
		bad "broken $name: crash (exit $rc)"
	elif [ "$rc" != 1 ]; then
		bad "broken $name: exit $rc, expected 1"
	elif ! grep -q "$name:[0-9][0-9]*:[0-9][0-9]*" "$tmp/err"; then
		bad "broken $name: no FILE:LINE:COL location"
	elif ! grep -q '^[[:space:]]*\^' "$tmp/err"; then
		bad "broken $name: no caret line"
	else
		ok
	fi
done

# 2b. generated hostile inputs: no crash, no hang, exit 0 or 1.
gen="$tmp/gen"
mkdir -p "$gen"
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "{"; print "" }' \
	>"$gen/deep-braces.nft"
awk 'BEGIN { print "table ip t { chain c {"; printf "meta mark set ";
	for (i = 0; i < 3000; i++) printf "(";
	printf "1"; for (i = 0; i < 3000; i++) printf ")"; print "" ; print "} }" }' \
	>"$gen/deep-parens.nft"
awk 'BEGIN { srand(42); for (i = 0; i < 4096; i++)
	printf "%c", int(rand() * 255) + 1 }' >"$gen/garbage.nft"
awk 'BEGIN { printf "table ip ";
	for (i = 0; i < 1000000; i++) printf "a"; print " { }" }' \
	>"$gen/long-name.nft"
awk 'BEGIN { printf "table ip t { chain c { tcp dport ";
	for (i = 0; i < 100000; i++) printf "9"; print " } }" }' \
	>"$gen/long-number.nft"
printf 'table ip t {\n\000chain c { }\n}\n' >"$gen/nul-byte.nft"
printf 'table ip t { chain c { ip saddr "\n' >"$gen/open-string-eof.nft"
awk 'BEGIN { print "table ip t { chain c {"; printf "tcp dport { ";
	for (i = 1; i < 20000; i++) printf "%d, ", i; print "20000 } accept";
	print "} }" }' >"$gen/big-set.nft"
awk 'BEGIN { for (i = 0; i < 200; i++) printf "define v%d = $v%d\n", i + 1, i;
	print "table ip t { chain c { tcp dport $v200 } }" }' >"$gen/define-chain.nft"
printf 'include "%s"\n' "$gen/self-include.nft" >"$gen/self-include.nft"
: >"$gen/empty.nft"
for f in "$gen"/*.nft; do
	run "$f"
	if crashed; then bad "generated $(basename "$f"): crash/hang (exit $rc)"
	elif [ "$rc" -gt 1 ]; then bad "generated $(basename "$f"): exit $rc"
	else ok; fi
done

[ "$known" = 0 ] || echo "($known known bugs, not counted)"
echo "check-memory${vg:+ (valgrind)}: $pass passed, $fail failed"
[ "$fail" = 0 ]
