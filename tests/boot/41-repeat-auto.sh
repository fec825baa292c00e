# 41-repeat-auto: tests/plans/repeat-auto.ini (2 cells, repeat = auto, repeat_max = 4) booted
# once. Each cell runs until its figure is stable (init/core/figures/verdict.c: 3 repeats at the
# least, RSD within 5%, range within 20%) or 4 times, whichever comes first, and no more:
#  - a cell whose summary says "auto": "stable" has a stable verdict and no cell record after
#    it; one that says "repeat_max" ran 4 times and is not stable;
#  - the trailer counts the positions not run as not_needed, and the report lists none of
#    them as lost or never run, nor a cell as short of its repeats;
#  - check prints the bound in its heading and its estimate.
# The fio writer capped at 2 MB/s is steady: it stops as stable after 3 repetitions, and its
# fourth position is not run. The seqwrite may go either way under TCG: the rule holds.
# tests/run: foreground (RSD within 5% over 3 repeats: a neighbour at the same priority can break it)
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

PLAN=$FSM_ROOT/tests/plans/repeat-auto.ini
FSM=$FSM_ROOT/out/fsmatrix
OUT=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}
mkdir -p "$FSM_TEST_RUNS"
"$FSM" check "$PLAN" >"$OUT.check" 2>&1
check "check prints the bound: at most 8 cells, each 3 to 4 times" grep -q \
	'^plan repeat-auto .*: at most 8 cells (2 per repetition x repeat = auto: each cell until its figure is stable, 3 to 4 times)$' "$OUT.check"
check "check's estimate spans every cell stable after 3 to none before 4" grep -q \
	'^at most 8 cells, 0 warnings, 0 errors; estimated ~.* (every cell stable after 3 repetitions) to ~.* (none stable before repeat_max 4) plus boot$' "$OUT.check"

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-run
rm -rf "$RUN"
boot run --disks 1 --size 256M --timeout 400 --plan "$PLAN"
expect_status "the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "one summary per cell, each saying why it stopped" test "$(jq -r -s \
	'[.[] | select(.type == "summary") | "\(.cell) \(.auto)"] | map(sub(" (stable|repeat_max)$"; "")) | sort | join(",")' "$j")" \
	= "disk/ext4/defaults/capped,disk/ext4/defaults/seq"
check "the capped writer stopped as stable after 3 repetitions" test "$(jq -r -s \
	'[.[] | select(.type == "summary" and .cell == "disk/ext4/defaults/capped") | "\(.auto) \(.n) \(.verdict.stable)"] | join(",")' "$j")" \
	= "stable 3 true"
check "a cell stopped as stable has a stable verdict over 3 or more repeats, and no record after its summary" jq -e -s '
	. as $all | [range(0; length) as $i | $all[$i] | select(.type == "summary" and .auto == "stable") | {i: $i, s: .}] |
	all(.[]; . as $x | $x.s.verdict.stable == true and $x.s.n >= 3 and $x.s.n <= 4 and
	    ([$all[$x.i:][] | select(.type == "cell" and .cell == $x.s.cell)] | length) == 0)' "$j"
check "a cell stopped at repeat_max ran 4 times and is not stable" jq -e -s '
	. as $all | [.[] | select(.type == "summary" and .auto == "repeat_max")] |
	all(.[]; . as $s | $s.verdict.stable == false and $s.n == 4 and
	    ([$all[] | select(.type == "cell" and .cell == $s.cell)] | length) == 4)' "$j"
check "each cell has as many ok records as its summary's n" jq -e -s '
	. as $all | [.[] | select(.type == "summary")] | length == 2 and
	all(.[]; . as $s | ([$all[] | select(.type == "cell" and .cell == $s.cell and .status == "ok")] | length) == $s.n)' "$j"
check "the trailer counts the positions not run as not_needed" jq -e -s '
	([.[] | select(.type == "cell")] | length) as $ran | .[] | select(.type == "trailer") |
	.cells == 8 and .counts.ok == $ran and .not_needed == 8 - $ran' "$j"
"$FSM" report "$j" >"$OUT.report" 2>&1
check "the report's status says how many were not needed" grep -q \
	'^  status    complete: 8 cells planned; ok [0-9]*, error 0, skipped 0, timeout 0, interrupted 0, not needed [0-9]* (repeat = auto: stable before);' "$OUT.report"
check "the report lists no position as lost or never run, and no cell short of its repeats" sh -c \
	"! grep -E 'never ran|no readable record|repeats ran' '$OUT.report'"

# A power cut after the capped cell stopped as stable (repetition 3, position 5), while the
# slow cell runs its third repetition (position 6): the resumed boot finds the stop in the
# journal and does not run the capped cell's fourth repetition (position 7).
PLAN=$FSM_ROOT/tests/plans/repeat-auto-resume.ini
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-cut
rm -rf "$RUN"
mkdir -p "$RUN/disks"
truncate -s 256M "$RUN/disks/fsmtest0.img"
boot_killed_slow cut 'slow rep 3/4: running' --reuse --disks 1 --size 256M --keep --timeout 400 --plan "$PLAN"
check "qemu was killed while the slow cell's third repetition ran" test "$KILLED" = yes
id=$(basename "$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)" .jsonl)
check "before the cut, the capped cell stopped as stable at position 5" test "$(jq -r -s \
	'[.[] | select(.type == "summary") | "\(.cell) \(.auto) \(.index)"] | join(",")' "$RUN/results/$id.jsonl")" \
	= "disk/ext4/defaults/capped stable 5"
boot cut --reuse --disks 1 --size 256M --keep --timeout 400 --plan "$PLAN" --disk-iops "$SLOW_IOPS"
expect_status "the resumed boot completes the run (exit 0)" 0
after=$RUN/results/$id.jsonl
check "after the resume, the capped cell's fourth repetition did not run" test "$(jq -s \
	'[.[] | select((.type == "cell" or (.type == "event" and .event == "cell-start")) and .index == 7)] | length' "$after")" = 0
check "the capped cell has 3 records, the slow one its interrupted attempt and a final record per repetition run" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.index)\(.status | .[0:1])"] | join(",")' "$after" | sed 's/,8o$//')" \
	= "1o,2o,3o,4o,5o,6i,6o"
check "the resumed boot's trailer counts the capped cell's fourth position as not needed, and every ok record" jq -e -s \
	'([.[] | select(.type == "cell" and .status == "ok")] | length) as $ok | .[] | select(.type == "trailer") |
	.not_needed == 1 and .counts.ok == $ok and .counts.interrupted == 1' "$after"
"$FSM" report "$after" >"$OUT.cut.report" 2>&1
check "the report of the resumed run lists no position as lost or never run" sh -c \
	"! grep -E 'never ran|no readable record' '$OUT.cut.report'"
rm -rf "$RUN/disks"
