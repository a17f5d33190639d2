#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: a short bounded fuzz run of the parser (FUZZ_SECONDS,
# default 20) when clang with libFuzzer is installed; skips (77) otherwise.
# Long runs: testcases/fuzz/build-and-run.sh -t 3600
here=${srcdir:-$(dirname "$0")/..}
cfg=${top_builddir:-..}/config.h
BUILD_CONFIG_H=$cfg exec sh "$here/fuzz/build-and-run.sh" \
	-t "${FUZZ_SECONDS:-20}" -o fuzz/build
