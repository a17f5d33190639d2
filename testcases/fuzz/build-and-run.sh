#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer parser target with clang (ASan + UBSan) and run it.
#
#   build-and-run.sh [-t SECONDS] [-o OUTDIR] [-j JOBS] [-b] [-- LIBFUZZER ARGS]
#
#   -t  fuzzing time in seconds (default 60)
#   -o  build/work directory (default ./fuzz-build); it keeps the objects,
#       the working corpus (OUTDIR/corpus) and crash artifacts
#       (OUTDIR/artifacts/), so repeated runs build incrementally and
#       continue from the corpus found so far
#   -b  build only
#
# Sources are libnftc's (libnftc_la_SOURCES in nftc/Makefile.am); the
# parser and scanner are generated here with bison/flex. Seeds come from
# testcases/examples and the nftables-py corpus rules (make-seeds.sh), plus
# fuzz/regressions/ (inputs that once crashed: keep adding them).
# Exit status: 0 clean run, 1 a crash/leak/timeout was found (artifacts
# kept), 2 the build failed, 77 clang with libFuzzer is not available.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=60
out=./fuzz-build
jobs=2
build_only=0
while getopts t:o:j:bh opt; do
	case $opt in
	t) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	j) jobs=$OPTARG ;;
	b) build_only=1 ;;
	*) sed -n '3,18p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift

CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "SKIP: $CLANG not found"
	exit 77
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
probe="$out/probe.c"
printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
	'{ (void)d; (void)n; return 0; }' >"$probe"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$probe" \
	-o "$out/probe" 2>/dev/null; then
	echo "SKIP: $CLANG cannot build libFuzzer targets (libclang-rt-dev?)"
	exit 77
fi

# libnftc's sources as nftc/Makefile.am lists them.
srcs=$(sed -n '/^libnftc_la_SOURCES/,/^[^	]*$/p' "$top/nftc/Makefile.am" |
	tr ' \t\\' '\n\n\n' | grep '\.[cyl]$' | sed 's/\.[yl]$/.c/' | sort -u)

# libnftc links libnftvm (the offline backend): its sources too.
ksrcs=$(sed -n '/^libnftvm_la_SOURCES/,/^[^	]*$/p' "$top/kmod/Makefile.am" |
	tr ' \t\\' '\n\n\n' | grep '\.c$' | sort -u)

gen="$out/gen"
mkdir -p "$gen" "$out/obj/kmod" "$out/artifacts" "$out/corpus"
cflags="-g -O1 -fno-omit-frame-pointer -std=gnu11 -DHAVE_CONFIG_H"
cflags="$cflags -fsanitize=fuzzer-no-link,address,undefined"
cflags="$cflags -I$gen -I$top/nftc -I$top/kmod/include -I$out"
cflags="$cflags $(pkg-config --cflags libnftnl libmnl)"
libs="$(pkg-config --libs libnftnl libmnl xtables)"
pkg-config --exists libpcap 2>/dev/null && libs="$libs $(pkg-config --libs libpcap)"

# config.h: the build tree's if one is given, else an empty one.
if [ -n "${BUILD_CONFIG_H:-}" ] && [ -f "$BUILD_CONFIG_H" ]; then
	cp "$BUILD_CONFIG_H" "$out/config.h"
elif [ ! -f "$out/config.h" ]; then
	: >"$out/config.h"
fi

objs=""
for s in $srcs; do
	objs="$objs obj/${s%.c}.o"
done
for s in $ksrcs; do
	objs="$objs obj/kmod/${s%.c}.o"
done
{
	echo "VPATH = $top/nftc:$gen"
	echo "CC = $CLANG"
	echo "CFLAGS = $cflags"
	echo "all: fuzz_parser"
	echo "obj/%.o: %.c $gen/parser.h"
	echo "	\$(CC) \$(CFLAGS) -MMD -MP -c -o \$@ \$<"
	echo "obj/kmod/%.o: $top/kmod/%.c"
	echo "	\$(CC) \$(CFLAGS) -MMD -MP -c -o \$@ \$<"
	echo "obj/fuzz_parser.o: $here/fuzz_parser.c $gen/parser.h"
	echo "	\$(CC) \$(CFLAGS) -MMD -MP -c -o \$@ \$<"
	echo "fuzz_parser: obj/fuzz_parser.o $objs"
	echo "	\$(CC) -fsanitize=fuzzer,address,undefined -o \$@ \$^ $libs"
	echo "-include obj/*.d obj/kmod/*.d"
} >"$out/Makefile"
# The generated parser and scanner, refreshed when their sources change.
# The grammar's parts are put together as nftc/Makefile.am does.
grammar="commands blocks matches statements"
stale=
[ -f "$gen/parser.c" ] || stale=1
for g in $grammar; do
	[ "$top/nftc/grammar/$g.y" -nt "$gen/parser.c" ] && stale=1
done
if [ -n "$stale" ]; then
	for g in $grammar; do cat "$top/nftc/grammar/$g.y"; done \
		>"$gen/parser.y"
	bison -d -Wno-yacc -o "$gen/parser.c" "$gen/parser.y" ||
		{ echo "FUZZ BUILD FAILED (bison)"; exit 2; }
fi
if [ ! -f "$gen/scanner.c" ] || [ "$top/nftc/scanner.l" -nt "$gen/scanner.c" ]; then
	(cd "$gen" && flex -o scanner.c "$top/nftc/scanner.l") ||
		{ echo "FUZZ BUILD FAILED (flex)"; exit 2; }
fi
if ! make -s -C "$out" -j"$jobs"; then
	echo "FUZZ BUILD FAILED"
	exit 2
fi
echo "built $out/fuzz_parser"
[ "$build_only" = 1 ] && exit 0

seeds="$out/seeds"
if [ ! -d "$seeds" ]; then
	sh "$here/make-seeds.sh" "$seeds"
fi
# Leaks are bugs too; ASan's leak checker runs at the end of each input.
# Whatever libFuzzer's mode (-fork=N -ignore_crashes=1 goes on past a
# crash), a run failed when it left new artifacts.
stamp="$out/.run-start"
: >"$stamp"
set +e
"$out/fuzz_parser" -max_total_time="$secs" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$out/artifacts/" "$@" "$out/corpus" "$seeds" \
	"$here/regressions"
rc=$?
set -e
new=$(find "$out/artifacts" -type f -newer "$stamp" | head -20)
if [ $rc != 0 ] || [ -n "$new" ]; then
	echo "FUZZ FAILURE (exit $rc): reproducer(s) in $out/artifacts/:"
	for f in $new; do
		echo "== $f"
		"$out/fuzz_parser" "$f" 2>&1 | grep -m1 'SUMMARY' || true
	done
	exit 1
fi
exit 0
