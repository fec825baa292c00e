#!/bin/bash
# tests/asan/run.sh: the unit programs built again under ASan and UBSan (build/unit-asan/test_*,
# make unit-asan), one line each in tests/run's form. A sanitizer report fails the program:
# it is built with -fno-sanitize-recover=all, so the first report ends it.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
LOGS=build/tests
mkdir -p "$LOGS"

for src in tests/unit/test_*.c; do
	[ -e "$src" ] || continue
	t=$(basename "$src" .c) name=asan/$(basename "$src" .c)
	bin=build/unit-asan/$t log=$LOGS/asan-$t.log
	if [ ! -x "$bin" ]; then
		echo "FAIL - $name: not built (make unit-asan)"
		continue
	fi
	timeout 300 "$bin" >"$log" 2>&1
	rc=$?
	summary=$(grep -E '^[^ ]+: [0-9]+ checks, [0-9]+ failed' "$log" | tail -n 1)
	if [ "$rc" = 0 ]; then
		echo "ok - $name${summary:+ (${summary#*: })}"
	else
		echo "FAIL - $name: exit status $rc${summary:+ (${summary#*: })} (log: $log)"
		grep -E '^(SUMMARY|==[0-9]+==ERROR)|runtime error|check failed' "$log" | head -n 5 |
			cut -c1-200 | sed 's/^/#   /'
	fi
done
