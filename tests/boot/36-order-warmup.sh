# 36-order-warmup: tests/plans/order.ini (3 cells x 2 repetitions, order = shuffle, warmup =
# 1) booted with fsmatrix.seed=2:
#  - a "warmup" record comes before the first cell record, on that cell's array, filesystem
#    and workload, and none of its figures is in a summary, a count or the report;
#  - the cells run in the order `fsmatrix check --seed 2` prints, on two boots;
#  - the second boot is killed (SIGKILL, a power cut) while the slow cell runs its second
#    repetition, and a third boot, with no seed on its command line, resumes the run in the
#    same order (the seed is the run's own, from its journal), warming up again first.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

PLAN=$FSM_ROOT/tests/plans/order.ini
FSM=$FSM_ROOT/out/fsmatrix
SEED=2
OUT=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}
mkdir -p "$FSM_TEST_RUNS"

# "CELL REP" per line: what check lists, and the final cell records of a journal in order.
"$FSM" check "$PLAN" --seed "$SEED" >"$OUT.check" 2>&1
sed -n 's/^cell [0-9]*\/[0-9]*  \(.*\)  rep \([0-9]*\)$/\1 \2/p' "$OUT.check" >"$OUT.want"
ran() { jq -r -s '.[] | select(.type == "cell" and .status != "interrupted") | "\(.cell) \(.rep)"' "$1"; }
check "check prints the order: shuffle, seed $SEED" grep -q "^order shuffle, seed $SEED: " "$OUT.check"
check "check lists 6 cells, not in the plan's own order" sh -c \
	"test \$(wc -l <'$OUT.want') = 6 && ! head -n 1 '$OUT.want' | grep -q '/first 1\$'"

# Boot 1: the whole run.
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-one
rm -rf "$RUN"
boot one --disks 1 --size 256M --timeout 300 --plan "$PLAN" --disk-iops "$SLOW_IOPS" \
	--append "fsmatrix.seed=$SEED"
expect_status "the first boot completes the run (exit 0)" 0
one=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "its cells ran in the order check printed" diff "$OUT.want" <(ran "$one")
check "the plan event records order shuffle, seed $SEED, from the command line, and warmup 1" \
	jq -e -s '[.[] | select(.type == "event" and .event == "plan")] | length == 1 and
	(.[0] | .order == "shuffle" and .seed == '"$SEED"' and .seed_source == "cmdline" and .warmup == 1)' "$one"
check "a warmup record, ok, comes before the first cell record, on the first cell" jq -e -s '
	(map(.type) | index("warmup")) as $w | (map(.type) | index("cell")) as $c |
	$w != null and $c != null and $w < $c and .[$w].status == "ok" and .[$w].cell == .[$c].cell and
	.[$w].warmup == 1 and .[$w].warmups == 1 and .[$w].figure.value > 0' "$one"
check "one warmup record in all, announced by a warmup-start event, with no time series" jq -e -s '
	([.[] | select(.type == "warmup")] | length == 1) and
	([.[] | select(.type == "event" and .event == "warmup-start")] | length == 1) and
	([.[] | select(.type == "series")] | length == 6)' "$one"
check "the trailer counts the 6 cells and not the warm-up" test "$(jq -r -s \
	'.[] | select(.type == "trailer") | "\(.cells) \(.counts.ok)"' "$one")" = "6 6"
# The warmed-up cell's summary is over its two repetitions: its mbps min and max are
# those of its two cell records (which round to 2 decimals), whatever the warm-up measured.
check "the warmed-up cell's summary is over its 2 cell records alone" jq -e -s '
	def near($a; $b): ($a - $b) as $d | (if $d < 0 then -$d else $d end) < 0.006;
	(.[] | select(.type == "warmup") | .cell) as $id |
	[.[] | select(.type == "cell" and .cell == $id) | .result.mbps] as $m |
	[.[] | select(.type == "summary" and .cell == $id)][0] as $s |
	($m | length) == 2 and $s.n == 2 and near($s.stats.mbps.min; $m | min) and
	near($s.stats.mbps.max; $m | max)' "$one"
"$FSM" report "$one" >"$OUT.report" 2>&1
check "the report counts 6 cells, ok 6" grep -q 'complete: 6 cells planned; ok 6, error 0' "$OUT.report"
# the report's figures for the warmed-up cell: over its two cell records alone
"$FSM" report --format json "$one" >"$OUT.report.json" 2>&1
check "the report's figures for the warmed-up cell are over its 2 cell records alone" jq -e -s '
	(.[0] | .runs[0].cells) as $cells | (.[1:] | map(select(.type == "warmup")) | .[0].cell) as $id |
	(.[1:] | [.[] | select(.type == "cell" and .cell == $id) | .result.mbps]) as $m |
	($cells | map(select(.cell == $id)) | .[0].metrics.mbps) as $r |
	$r.n == 2 and $r.min == ($m | min) and $r.max == ($m | max) and ($cells | length) == 3' \
	"$OUT.report.json" "$one"

# Boot 2: the same plan and seed, killed while the slow cell runs its second repetition.
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-two
rm -rf "$RUN"
mkdir -p "$RUN/disks"
truncate -s 256M "$RUN/disks/fsmtest0.img"
boot_killed_slow two 'slow rep 2/2: running' --reuse --disks 1 --size 256M --keep --timeout 300 \
	--plan "$PLAN" --append "fsmatrix.seed=$SEED"
check "qemu was killed while the slow cell's second repetition ran" test "$KILLED" = yes
id=$(basename "$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)" .jsonl)
before=$OUT.before.jsonl
cat "$RUN/results/$id.jsonl" >"$before" 2>/dev/null
ran "$before" >"$OUT.b"
check "the killed boot ran its first 4 cells in the same order" \
	diff <(head -n 4 "$OUT.want") "$OUT.b"

# Boot 3: resumed, with no seed on the command line.
boot two --reuse --disks 1 --size 256M --keep --timeout 300 --plan "$PLAN" --disk-iops "$SLOW_IOPS"
expect_status "the third boot completes the run (exit 0)" 0
expect_console "it resumes the killed boot's run" "fsmatrix: resuming run $id"
after=$RUN/results/$id.jsonl
check "the resumed run's cells, across both boots, ran in the order check printed" \
	diff "$OUT.want" <(ran "$after")
check "the resumed boot kept the run's seed: its plan event says seed $SEED, from the journal" \
	jq -e -s '[.[] | select(.type == "event" and .event == "plan")] | length == 2 and
	(.[1] | .seed == '"$SEED"' and .seed_source == "journal")' "$after"
check "after the resume, a warmup record before the next cell record" jq -e -s '
	(map(.type == "event" and .event == "resume") | index(true)) as $r |
	(.[$r:] | map(.type)) as $t | ($t | index("warmup")) as $w | ($t | index("cell")) as $c |
	$r != null and $w != null and $c != null and $w < $c' "$after"
check "the slow cell's second repetition is interrupted once, then ok as attempt 2" test "$(jq -r -s \
	'[.[] | select(.type == "cell" and .cell == "disk/ext4/defaults/slow" and .rep == 2) | "\(.status) \(.attempt)"] | join(",")' \
	"$after")" = "interrupted 1,ok 2"
check "the trailer counts 6 cells, ok 6, interrupted 1" test "$(jq -r -s \
	'.[] | select(.type == "trailer") | "\(.cells) \(.counts.ok) \(.counts.interrupted)"' "$after")" = "6 6 1"
rm -rf "$RUN/disks"
