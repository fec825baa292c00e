# 39-reference: the machine's noise floor and drift. PID 1 measures the reference set (a CPU
# loop, a memory copy, the seqwrite engine on a brd RAM disk, an O_DIRECT read of the first
# taken disk) at the start and the end of the boot, and writes each as a reference record.
# Half way through the run qemu's I/O throttle (QMP block_set_io_throttle, 2 MB/s) is set on
# the test disk: the end's disk read falls far beyond the bound its own spread gives, and the
# report says that conditions changed during the run and names the cells measured between.
# tests/run: foreground (a guest beside it at the same priority, starting or ending between its references, is a drift too)
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
PLAN=$FSM_ROOT/tests/plans/reference-drift.ini
ref() { printf 'select(.type == "reference" and .phase == "%s") | %s' "$1" "$2"; }

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-throttled
rm -rf "$RUN" "$RUN.qmp"
(
	for _ in $(seq 600); do
		if grep -q '\[3/4\] .*running' "$RUN/console.log" 2>/dev/null; then
			qmp_throttle 2000000
			break
		fi
		sleep 0.2
	done
) &
throttler=$!
boot throttled --disks 1 --size 256M --timeout 600 --plan "$PLAN"
wait "$throttler"
expect_status "the run completes (exit 0)" 0
check "the disk was throttled through QMP when cell 3 began" grep -q '"return"' "$RUN.qmp"
for phase in start end; do
	expect_record "a $phase reference record with the four figures, three repeats each" \
		"$(ref "$phase" '.boot == 1 and .disk == "vdb" and (.figures | keys == ["cpu_loop", "disk_read", "memcpy", "ramdisk_seqwrite"]) and all(.figures[]; (.values | length == 3) and .median > 0)')"
done
expect_record "the RAM disk figure went through the cell's seqwrite engine on brd" \
	"$(ref start '.figures.ramdisk_seqwrite.unit == "MB/s" and .figures.ramdisk_seqwrite.median > 1')"
check "the start reference precedes every cell and the end follows them" bash -c '
	"$1" "$2/console.log" | jq -s -e "[.[] | select(.type == \"reference\" or .type == \"cell\") | .type + (.phase // \"\")] as \$t |
		\$t[0] == \"referencestart\" and \$t[-1] == \"referenceend\" and (\$t | map(select(. == \"cell\")) | length == 4)" >/dev/null' _ "$RECORDS" "$RUN"
expect_record "the end's disk read fell with the throttle" \
	"$(ref end '.figures.disk_read.median < 10')"
check "the report says conditions changed during the run, naming the disk read and the cells between" bash -c '
	"$1"/out/fsmatrix report "$2" | sed -n "/^Problems/,\$p" |
		grep -q "conditions changed during the run (boot 1): .*disk_read [0-9.e-]*x its start.*the 4 cell records measured between are in doubt: disk/ext4/defaults/seq rep 1/4"' _ "$FSM_ROOT" "$RUN"
check "the Conditions section shows the reference set at the start and the end" bash -c '
	"$1"/out/fsmatrix report "$2" | grep -q "^  reference    boot 1: cpu_loop .* Mops/s at the start, .* at the end"' _ "$FSM_ROOT" "$RUN"
