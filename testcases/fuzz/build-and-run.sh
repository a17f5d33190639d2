#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer targets with clang (ASan + UBSan) and run one.
#
#   build-and-run.sh [-T TARGET] [-t SECONDS] [-o OUTDIR] [-j JOBS] [-b]
#                    [-- LIBFUZZER ARGS]
#
#   -T  parser (nft text: fuzz_parser.c, the default) or vm (the VM's
#       batches, dumps and packet path: fuzz_vm.c)
#   -t  fuzzing time in seconds (default 60)
#   -o  build/work directory (default ./fuzz-build); it keeps the objects,
#       the working corpus (OUTDIR/corpus, OUTDIR/corpus-vm) and crash
#       artifacts (OUTDIR/artifacts/), so repeated runs build incrementally and
#       continue from the corpus found so far
#   -b  build only
#
# Sources are libnftc's (libnftc_la_SOURCES in nftc/Makefile.am); the
# parser and scanner are generated here with bison/flex. Parser seeds come
# from testcases/examples and the nftables-py corpus rules (make-seeds.sh),
# plus fuzz/regressions/ (inputs that once crashed: keep adding them); the
# VM target starts from its compiled-in base rulesets and
# fuzz/regressions-vm/.
# Exit status: 0 clean run, 1 a crash/leak/timeout was found (artifacts
# kept), 2 the build failed, 77 clang with libFuzzer is not available.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=60
target=parser
out=./fuzz-build
jobs=2
build_only=0
while getopts T:t:o:j:bh opt; do
	case $opt in
	T) target=$OPTARG ;;
	t) secs=$OPTARG ;;
	o) out=$OPTARG ;;
	j) jobs=$OPTARG ;;
	b) build_only=1 ;;
	*) sed -n '3,22p' "$0"; exit 2 ;;
	esac
done
case $target in
parser|vm) ;;
*) echo "unknown target $target (parser, vm)"; exit 2 ;;
esac
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
	echo "all: fuzz_parser fuzz_vm"
	echo "obj/%.o: %.c $gen/parser.h"
	echo "	\$(CC) \$(CFLAGS) -MMD -MP -c -o \$@ \$<"
	echo "obj/kmod/%.o: $top/kmod/%.c"
	echo "	\$(CC) \$(CFLAGS) -MMD -MP -c -o \$@ \$<"
	echo "obj/fuzz_parser.o: $here/fuzz_parser.c $gen/parser.h"
	echo "	\$(CC) \$(CFLAGS) -MMD -MP -c -o \$@ \$<"
	echo "obj/fuzz_vm.o: $here/fuzz_vm.c $gen/parser.h"
	echo "	\$(CC) \$(CFLAGS) -MMD -MP -c -o \$@ \$<"
	echo "fuzz_parser: obj/fuzz_parser.o $objs"
	echo "	\$(CC) -fsanitize=fuzzer,address,undefined -o \$@ \$^ $libs"
	echo "fuzz_vm: obj/fuzz_vm.o $objs"
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
echo "built $out/fuzz_parser and $out/fuzz_vm"
[ "$build_only" = 1 ] && exit 0

if [ "$target" = vm ]; then
	bin="$out/fuzz_vm"
	corpus="$out/corpus-vm"
	seeds="$here/regressions-vm"
	maxlen=2048
else
	bin="$out/fuzz_parser"
	corpus="$out/corpus"
	seeds="$out/seeds"
	maxlen=4096
	[ -d "$seeds" ] || sh "$here/make-seeds.sh" "$seeds"
fi
mkdir -p "$corpus"
# Leaks are bugs too; ASan's leak checker runs at the end of each input.
# Whatever libFuzzer's mode (-fork=N -ignore_crashes=1 goes on past a
# crash), a run failed when it left new artifacts.
stamp="$out/.run-start"
: >"$stamp"
set +e
if [ "$target" = vm ]; then
	"$bin" -max_total_time="$secs" -max_len=$maxlen -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/artifacts/vm-" "$@" "$corpus" "$seeds"
else
	"$bin" -max_total_time="$secs" -max_len=$maxlen -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/artifacts/" "$@" "$corpus" "$seeds" \
		"$here/regressions"
fi
rc=$?
set -e
new=$(find "$out/artifacts" -type f -newer "$stamp" | head -20)
if [ $rc != 0 ] || [ -n "$new" ]; then
	echo "FUZZ FAILURE (exit $rc): reproducer(s) in $out/artifacts/:"
	for f in $new; do
		echo "== $f"
		"$bin" "$f" 2>&1 | grep -m1 'SUMMARY' || true
	done
	exit 1
fi
exit 0
