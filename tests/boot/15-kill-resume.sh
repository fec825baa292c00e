# 15-kill-resume: qemu killed (SIGKILL, as a power cut) while a cell runs, then booted
# again on the same test disk and results disk: the run resumes under its first id, every
# cell has exactly one final record, the interrupted one has one "interrupted" record too,
# and the journal written before the kill is the unaltered start of the final one. A second
# disk holding ext4 is named by the same serial glob but never taken (it carries a
# signature): a resumed run takes back only the disks its first boot took, so that disk
# stays byte-identical through both boots.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

PLAN=$FSM_ROOT/tests/plans/resume.ini
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-run
# An earlier run's console must not be mistaken for this one's.
rm -rf "$RUN" "$RUN.data"
mkdir -p "$RUN/disks" "$RUN.data"
echo "fsmatrix must not touch this file" >"$RUN.data/precious.txt"
truncate -s 256M "$RUN/disks/fsmtest0.img"
truncate -s 256M "$RUN/disks/fsmtest1.img"
mkfs.ext4 -q -F -d "$RUN.data" "$RUN/disks/fsmtest1.img" && rm -rf "$RUN.data"
snapshot "$RUN/disks/fsmtest1.img"
boot_killed_slow run 'slow rep 1/1: running' --reuse --disks 2 --size 256M --keep --timeout 300 --plan "$PLAN"
check "qemu was killed while the second cell ran" test "$KILLED" = yes
check "the killed boot left no trailer" sh -c "! grep -q '\"type\":\"trailer\"' '$RUN'/results/*.jsonl"
before=$FSM_TEST_RUNS/15-kill-resume.before.jsonl
cat "$RUN"/results/*.jsonl >"$before" 2>/dev/null
id=$(basename "$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)" .jsonl)
check "the first boot recorded cell 1 and announced cell 2" \
	grep -q '"event":"cell-start","run":"'"$id"'","index":2' "$before"

boot run --reuse --disks 2 --size 256M --keep --timeout 300 --plan "$PLAN" --disk-iops "$SLOW_IOPS"
expect_status "the second boot completes the run (exit 0)" 0
expect_console "it resumes the first boot's run" "fsmatrix: resuming run $id"
expect_record "the resume event names cell 2 as interrupted" \
	'select(.type == "event" and .event == "resume") | .run == "'"$id"'" and .interrupted == [2] and .cells_done == 1'
check "one journal for the run, no second file" test "$(ls "$RUN"/results/*.jsonl | wc -l)" = 1
after=$RUN/results/$id.jsonl
check "the journal before the kill is the unaltered start of the final one" \
	cmp -n "$(stat -c %s "$before")" "$before" "$after"
check "every line of the final journal is a JSON record" jq -e -s 'length > 0' "$after"
check "each cell has exactly one final record" test "$(jq -r -s \
	'[.[] | select(.type == "cell" and .status != "interrupted") | .index] | sort | map(tostring) | join(",")' "$after")" = "1,2,3"
check "cell 2 has exactly one interrupted record, and no other cell has one" test "$(jq -r -s \
	'[.[] | select(.type == "cell" and .status == "interrupted") | .index] | map(tostring) | join(",")' "$after")" = "2"
check "cell 2 ran again as attempt 2 and is ok" test "$(jq -r -s \
	'.[] | select(.type == "cell" and .index == 2 and .status != "interrupted") | "\(.attempt) \(.status)"' "$after")" = "2 ok"
check "cell 1 was not run again (one cell-start)" test "$(jq -s \
	'[.[] | select(.type == "event" and .event == "cell-start" and .index == 1)] | length' "$after")" = 1
check "the trailer closes the run once and counts the interruption" test "$(jq -r -s \
	'[.[] | select(.type == "trailer")] | map("\(.run) \(.counts.ok) \(.counts.interrupted)") | join(",")' "$after")" = "$id 3 1"
expect_record "the resumed boot still refuses the ext4 disk it never took" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest1") | .verdict == "has-signature"'
sha256_unchanged "the ext4 disk is unchanged through both boots, byte for byte" "$RUN/disks/fsmtest1.img"
rm -rf "$RUN/disks"
