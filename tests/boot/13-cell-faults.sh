# 13-cell-faults: failures inside a cell cost that cell only (issues 5 and 8). A workload
# larger than the filesystem is an error cell naming ENOSPC; a workload past the cell's
# timeout is killed, its cell is `timeout`, and teardown still unmounts and wipes; with
# repeat = 2 every cell gets a summary record over its repetitions that ended ok.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

cell_of() { cell "disk/ext4/defaults/$1"; }   # WORKLOAD: its cell on the disk's ext4
boot faults --disks 1 --size 128M --timeout 300 --plan "$FSM_ROOT/tests/plans/cell-faults.ini" \
	--disk-iops "$SLOW_IOPS"
expect_status "the run completes (exit 0)" 0
expect_record "a workload larger than the filesystem: an error cell naming ENOSPC" \
	"$(cell_of full) | .status == \"error\" and (.error | test(\"No space left on device \\\\(ENOSPC\\\\)\")) and .result.errno == \"ENOSPC\""
expect_record "a workload past the timeout: a timeout cell, the workload killed" \
	"$(cell_of slow) | .status == \"timeout\" and (.error | test(\"did not finish within\"))"
expect_record "the timed-out cell is torn down: unmounted, then wiped" \
	"$(cell_of slow) | [.steps[] | .argv[0]] | .[-2:] == [\"umount(2)\", \"wipe\"]"
expect_record "the cell after a failure runs: ok" "$(cell_of seq) | .status == \"ok\" and .result.mbps > 0"
expect_record "a summary of the ok cell over both repetitions" \
	'select(.type == "summary" and .cell == "disk/ext4/defaults/seq") | .n == 2 and .stats.mbps.min <= .stats.mbps.median and .stats.mbps.median <= .stats.mbps.max and (.stats.mbps.cv | type) == "number"'
expect_record "a summary of a failing cell says none ended ok" \
	'select(.type == "summary" and .cell == "disk/ext4/defaults/full") | .n == 0 and .stats == {}'
expect_record "the summary's verdict on the ok cell: two repeats are too few" \
	'select(.type == "summary" and .cell == "disk/ext4/defaults/seq") | .verdict.metric == "mbps" and .verdict.stable == false and .verdict.n == 2 and .verdict.reason == "too few repeats: 2 of 3" and (.verdict.rsd_pct | type) == "number"'
expect_record "the summary's verdict on the failing cell: no repeats" \
	'select(.type == "summary" and .cell == "disk/ext4/defaults/full") | .verdict == {"metric": "mbps", "stable": false, "n": 0, "rsd_pct": null, "range_pct": null, "reason": "too few repeats: 0 of 3"}'
expect_record "the trailer counts 2 ok, 2 error, 2 timeout" \
	'select(.type == "trailer") | .cells == 6 and .counts.ok == 2 and .counts.error == 2 and .counts.timeout == 2'
