# 17-results-full: a results partition that cannot take the records. Read-only
# (qemu readonly=on, as a stick with its write-protect switch on): /init mounts it
# read-only, still reads its plan, and says once that records go to the console only.
# Full (a small FAT with a few KiB left): the first write that fails is reported once, and
# every record still reaches the console. Both runs complete.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
PLAN=$FSM_ROOT/tests/boot/smoke.ini

boot ro --disks 1 --size 256M --timeout 300 --results-readonly --plan "$PLAN"
expect_status "read-only: the run completes (exit 0)" 0
expect_console "read-only: the plan was read from the results partition" 'fsmatrix: plan smoke from /results/fsmatrix/plan.ini'
check "read-only: the console says so once" \
	test "$(grep -c 'results partition /dev/vda1 is read-only' "$RUN/console.log")" = 1
expect_record "read-only: the cell record is on the console" 'select(.type == "cell") | .status == "ok"'
check "read-only: nothing was written to the results disk" sh -c "! ls '$RUN'/results/*.jsonl 2>/dev/null"

# A results disk made here, as qemu/run makes one but 8 MiB with FAT12 (FAT16 needs more),
# holding the plan and a filler that leaves 12 KiB: less than this run's records.
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-full
rm -rf "$RUN" && mkdir -p "$RUN"
export MTOOLS_SKIP_CHECK=1
img=$RUN/results.img fat="$RUN/results.img@@1048576"
truncate -s 8M "$img" && echo "start=2048, type=1" | sfdisk -q --label dos "$img" &&
	mkfs.vfat -F 12 -n FSMRESULTS --offset 2048 "$img" 7168 >/dev/null &&
	mmd -i "$fat" ::fsmatrix && mcopy -i "$fat" "$PLAN" ::fsmatrix/plan.ini
free=$(mdir -i "$fat" ::fsmatrix | sed -n 's/^ *\([0-9 ]*[0-9]\) bytes free.*/\1/p' | tr -d ' ')
head -c $((free - 12288)) /dev/zero >"$RUN/filler" && mcopy -i "$fat" "$RUN/filler" ::filler
rm -f "$RUN/filler"
boot full --reuse --disks 1 --size 256M --timeout 300
expect_status "full: the run completes (exit 0)" 0
check "full: the console says once that a results file could not be written" \
	test "$(grep -c 'unable to write /results/fsmatrix/results/.*: No space left on device (records continue on the console only)' "$RUN/console.log")" = 1
expect_record "full: the cell record is on the console" 'select(.type == "cell") | .status == "ok"'
expect_record "full: the trailer is on the console" 'select(.type == "trailer") | .counts.ok == 1'
