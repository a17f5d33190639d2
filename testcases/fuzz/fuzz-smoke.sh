#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: a short bounded fuzz run of the parser (FUZZ_SECONDS,
# default 20, fixed seed) when clang with libFuzzer is installed; skips
# (77) otherwise. Long runs: testcases/fuzz/build-and-run.sh -t 3600
#
# A crash found while fuzzing is reported loudly in the log but fails the
# test only with FUZZ_STRICT=1, so that a newly found bug does not block
# unrelated work; fix it and add the reproducer to fuzz/regressions/.
here=${srcdir:-$(dirname "$0")/..}
cfg=${top_builddir:-..}/config.h
BUILD_CONFIG_H=$cfg sh "$here/fuzz/build-and-run.sh" \
	-t "${FUZZ_SECONDS:-20}" -o fuzz/build -- -seed=1 \
	-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
rc=$?
if [ $rc = 1 ] && [ "${FUZZ_STRICT:-0}" != 1 ]; then
	echo "WARNING: the fuzzer found a crash (see above); non-fatal unless" \
	     "FUZZ_STRICT=1"
	exit 0
fi
if [ $rc = 2 ] && [ "${FUZZ_STRICT:-0}" != 1 ]; then
	echo "WARNING: the fuzz target did not build with clang; skipped"
	exit 77
fi
exit $rc
