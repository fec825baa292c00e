#!/bin/bash
# tests/fuzz/run.sh: the libFuzzer harnesses build/fuzz/fuzz_NAME (make fuzz-build), one line
# each in tests/run's form ("ok - fuzz/NAME: ..." / "FAIL - fuzz/NAME: ...").
#
#   tests/fuzz/run.sh                         smoke, for make test: each harness for
#                                             FSM_FUZZ_SMOKE seconds (default 15) from its seeds
#   tests/fuzz/run.sh --seconds N NAME...     make fuzz: each for N seconds, one after another
#
# Seeds are tests/fuzz/corpus/NAME/ and stay as they are; what a long run learns goes to
# build/fuzz/NAME/corpus/, which the next long run starts from. A crash, a sanitizer report or
# a broken invariant leaves its input as build/fuzz/NAME/crash-* and the log build/fuzz/NAME.log
# (build/fuzz/smoke/NAME* for a smoke run); replay it with build/fuzz/fuzz_NAME FILE.
# Exit status 1 if any harness failed.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1

seconds=${FSM_FUZZ_SMOKE:-15} smoke=1
if [ "${1:-}" = --seconds ]; then
	seconds=$2 smoke=0
	shift 2
fi
names=("$@")
if [ ${#names[@]} = 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do
		n=${f#tests/fuzz/fuzz_}
		names+=("${n%.c}")
	done
fi

rc=0
for n in "${names[@]}"; do
	bin=build/fuzz/fuzz_$n work=build/fuzz/$n
	# a smoke run keeps out of a long run's way: make test may run while make fuzz does
	[ "$smoke" = 0 ] || work=build/fuzz/smoke/$n
	if [ ! -x "$bin" ]; then
		echo "FAIL - fuzz/$n: $bin is not built (make fuzz-build)"
		rc=1
		continue
	fi
	corpus=$work/corpus
	[ "$smoke" = 0 ] || rm -rf "$corpus"   # a smoke run starts from the seeds alone
	mkdir -p "$corpus"
	rm -f "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*
	log=$work.log
	dict=()
	[ ! -f "tests/fuzz/$n.dict" ] || dict=(-dict="tests/fuzz/$n.dict")
	# A smoke run uses a fixed seed, so that make test explores the same inputs each time and
	# a failure there can be reproduced; a long run explores afresh.
	seed=()
	[ "$smoke" = 0 ] || seed=(-seed=1)
	# -timeout: an input taking 10 s is a hang; -rss_limit_mb: 2 GiB is a runaway allocation.
	# One job only: the machine is small and others share it.
	"$bin" "${dict[@]}" "${seed[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/" "$corpus" "tests/fuzz/corpus/$n" \
		>"$log" 2>&1
	status=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	artifact=$(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | head -n 1)
	if [ "$status" = 0 ] && [ -z "$artifact" ]; then
		echo "ok - fuzz/$n (${runs:-?} runs in ${secs:-$seconds} s, no crash)"
	else
		echo "FAIL - fuzz/$n: status $status after ${runs:-?} runs${artifact:+, input $artifact} (log: $log)"
		grep -E '^(SUMMARY|==[0-9]+==ERROR)|invariant broken|runtime error' "$log" | head -n 5 | sed 's/^/#   /'
		rc=1
	fi
done
exit $rc
