# 25-shard-resume: a shard of a run (fsmatrix.shard=1/2 of tests/plans/resume.ini, whose
# shard 1 is its second cell, the slow one) killed while its cell runs; booted as shard 2/2
# by mistake, it stops with one line naming both shards and leaves the journal as it was;
# then booted again as the same shard: the run resumes under its first id, runs only its own cell again (attempt
# 2), writes nothing for the other shard's cells, and its trailer counts its one cell. The
# header of each boot records the shard and the run group `fsmatrix check --shards 2` shows.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

PLAN=$FSM_ROOT/tests/plans/resume.ini
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-run
rm -rf "$RUN"
mkdir -p "$RUN/disks"
truncate -s 256M "$RUN/disks/fsmtest0.img"
group=$("$FSM_ROOT/out/fsmatrix" check "$PLAN" --shards 2 | sed -n 's/^2 shards (fsmatrix.shard=K\/2), run group //p')
boot_killed_slow run 'slow rep 1/1: running' --reuse --disks 1 --size 256M --keep --timeout 300 --plan "$PLAN" \
	--append fsmatrix.shard=1/2
check "qemu was killed while the shard's cell ran" test "$KILLED" = yes
id=$(basename "$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)" .jsonl)
check "the first boot started cell 2 and no other" test "$(jq -r -s \
	'[.[] | select(.type == "event" and .event == "cell-start") | .index] | map(tostring) | join(",")' \
	"$RUN/results/$id.jsonl" 2>/dev/null)" = 2

# the wrong shard typed after the power cut: refused, the interrupted run left as it was
before=$(sha256sum <"$RUN/results/$id.jsonl")
boot run --reuse --disks 1 --size 256M --keep --timeout 300 --plan "$PLAN" --disk-iops "$SLOW_IOPS" \
	--append fsmatrix.shard=2/2
expect_status "a boot asking shard 2/2 stops without a trailer (exit 2)" 2
expect_console "it refuses to leave shard 1/2's run unfinished, naming both shards" \
	"^fsmatrix: fatal: run $id of this plan ran shard 1/2 and stopped part way, and this boot asks shard 2/2: refusing"
check "the interrupted run's journal is unchanged" test "$(sha256sum <"$RUN/results/$id.jsonl")" = "$before"

boot run --reuse --disks 1 --size 256M --keep --timeout 300 --plan "$PLAN" --disk-iops "$SLOW_IOPS" \
	--append fsmatrix.shard=1/2
expect_status "the second boot completes the shard (exit 0)" 0
expect_console "it resumes the first boot's run" "fsmatrix: resuming run $id"
after=$RUN/results/$id.jsonl
check "one journal for the run; the refused boot's file holds its fatal event alone" bash -c '
	test "$(grep -l "\"type\":\"header\"" "$1"/results/*.jsonl | wc -l)" = 1 &&
	test "$(cat "$1"/results/*.jsonl | jq -s "[.[] | select(.run != \"$2\") | .type + \" \" + (.event // \"\")] | join(\",\")" -r)" = "event fatal"' _ "$RUN" "$id"
check "the shard's records: cell 2 interrupted, then ok as attempt 2; none of cells 1 and 3" \
	test "$(jq -r -s '[.[] | select(.type == "cell") | "\(.index) \(.status) \(.attempt)"] | join(",")' "$after")" = "2 interrupted 1,2 ok 2"
check "each attempt a test case of its own: rep1, then rep1/attempt2; the run's ran" test "$(jq -r -s \
	'[.[] | select(.type == "cell" or .type == "trailer") | "\(.case) \(.status)"] | join(",")' "$after")" = \
	"disk/ext4/defaults/slow/rep1 interrupted,disk/ext4/defaults/slow/rep1/attempt2 ok,run ran"
check "the trailer counts the shard's one cell" test "$(jq -r -s \
	'[.[] | select(.type == "trailer")] | map("\(.cells) \(.counts.ok) \(.counts.interrupted)") | join(",")' "$after")" = "1 1 1"
check "each header records shard 1/2 with cell 2 and the run group check shows" test "$(jq -r -s \
	'[.[] | select(.type == "header") | "\(.shard.k)/\(.shard.n) \(.shard.cells) \(.run_group)"] | unique | join(",")' "$after")" = "1/2 [2] $group"
"$FSM_ROOT/out/fsmatrix" report "$after" >"$RUN.report" 2>&1
check "the report of the shard alone names shard 2 missing" grep -q '^  shard 2/2 missing' "$RUN.report"
rm -rf "$RUN/disks"
