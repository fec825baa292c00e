# 14-disk-loss: a test disk that disappears while a cell runs (qemu's device_del, as a disk
# dropping off the bus) costs that cell, named in its error, and the cells that need more
# disks than remain are skipped with that reason; the run completes.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

status_file=$FSM_TEST_RUNS/14-disk-loss.status
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-loss
# Before the boot starts: the watch below must not see an earlier run's console.
rm -rf "$status_file" "$RUN"
(
	boot loss --disks 2 --size 256M --timeout 300 --plan "$FSM_ROOT/tests/plans/disk-loss.ini" \
		--disk-iops "$SLOW_IOPS"
	echo "$BOOT_STATUS" >"$status_file"
) &
booting=$!
# Pull the disk once the slow cell has started (the array is being made or written).
pulled=no
for _ in $(seq 240); do
	if grep -q 'slow rep 1/1: running' "$RUN/console.log" 2>/dev/null; then
		sleep 3
		"$FSM_ROOT/qemu/monitor" "$RUN" 'device_del fsmtest1' >/dev/null 2>&1 && pulled=yes
		break
	fi
	sleep 0.5
done
wait "$booting"
BOOT_STATUS=$(cat "$status_file" 2>/dev/null)
check "fsmtest1 was pulled while the first cell ran" test "$pulled" = yes
expect_status "the run completes (exit 0)" 0
expect_record "the cell that lost a disk is an error naming it" \
	"$(cell r1/ext4/defaults/slow '.status == "error" and (.error | test("^test disk vdc disappeared"))')"
expect_record "the next cell needs 2 disks and 1 remains: skipped with that reason" \
	"$(cell r1/ext4/defaults/seq '.status == "skipped" and .error == "[array r1] needs 2 test disks, 1 remain (gone: vdc)"')"
expect_record "the trailer counts 1 error and 1 skipped" \
	'select(.type == "trailer") | .counts.error == 1 and .counts.skipped == 1'
