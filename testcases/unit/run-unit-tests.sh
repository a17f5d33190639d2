#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every Check unit test program built from unit/check_*.c.
# $UNIT_TESTS (set by testcases/Makefile) lists them; exit 77 if none.
set -u
tests=${UNIT_TESTS:-$(ls unit/check_* 2>/dev/null | grep -v '\.[cod]$')}
[ -n "$tests" ] || { echo "SKIP: no unit tests built"; exit 77; }

pass=0
fail=0
for t in $tests; do
	if [ ! -x "$t" ]; then
		echo "FAIL: $t was not built"
		fail=$((fail + 1))
		continue
	fi
	echo "=== $t"
	if "./$t"; then
		pass=$((pass + 1))
	else
		echo "FAIL: $t"
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
