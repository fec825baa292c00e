# 57-durability: durability = log-writes on known truths (tests/plans/durability.ini). ext4
# with barrier=1,data=ordered and fsync loses no acknowledged record at any of 8 crash points
# in either model (a loss would be a defect of the instrument); ext4 with barrier=0 issues no
# flush of its own, so in the pessimistic model (the disk's volatile cache lost whole)
# acknowledged records are lost, while in the optimistic model (no cache) none is. A third
# disk named by the serial glob carries a LUKS1 header: refused, it stays byte-identical. xfs
# (defaults) loses nothing in either model, and xfs_repair -n finds nothing at any point. A
# second boot: a log too small for the cell's writes overflows, and its durability is
# inconclusive.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

RUN=$FSM_TEST_RUNS/57-durability-known
rm -rf "$RUN" && mkdir -p "$RUN/disks"
D=$RUN/disks
for i in 0 1 2; do truncate -s 384M "$D/fsmtest$i.img"; done
printf 'LUKS\xba\xbe\x00\x01aes' | dd of="$D/fsmtest2.img" bs=1 conv=notrunc status=none
snapshot "$D/fsmtest2.img"

boot known --disks 3 --size 384M --reuse --keep --timeout 600 \
	--plan "$FSM_ROOT/tests/plans/durability.ini"
expect_status "the run completes (exit 0)" 0
sha256_unchanged "the disk the guest refused (a LUKS1 header) is byte-identical" "$D/fsmtest2.img"

B1='select(.type == "cell" and .cell == "disk/ext4/barrier=1,data=ordered/dur")'
B0='select(.type == "cell" and .cell == "disk/ext4/barrier=0,data=ordered/dur")'
expect_record "barrier=1: the cell is ok, on the log-writes device, logging to the second disk" \
	"$B1 | .status == \"ok\" and .target == \"/dev/mapper/fsm-8-lw\" and .durability.log_disk == \"/dev/vdc\""
expect_record "barrier=1: 8 crash points checked in each model, the log whole (no logging_disabled)" \
	"$B1 | .durability.pessimistic.points == 8 and .durability.optimistic.points == 8 and (.durability.log_status | test(\"logging_disabled\") | not)"
expect_record "barrier=1: the filesystem flushed (flushes or FUA writes in the log)" \
	"$B1 | .durability.flushes + .durability.fuas > 0"
expect_record "barrier=1: no acknowledged record lost or torn, every point mounts, in either model" \
	"$B1 | .durability.verdict == \"ok\" and ([.durability.pessimistic, .durability.optimistic][] | .points_lost == 0 and .records_lost == 0 and .records_torn == 0 and .unmountable == 0) "
expect_record "barrier=1: e2fsck -fn ran on every replayed point of both models and found nothing" \
	"$B1 | [.durability.pessimistic, .durability.optimistic][] | .fsck_runs == 8 and .fsck_errors == 0"
check "barrier=0: no FUA in the log, and only mkfs's flushes (fewer than barrier=1's)" test "$(records_console |
	jq -s '([.[] | select(.type == "cell" and (.cell | test("barrier=0"))) | .durability] | .[0]) as $b0 |
		([.[] | select(.type == "cell" and (.cell | test("barrier=1"))) | .durability] | .[0]) as $b1 |
		$b0.fuas == 0 and $b0.flushes < $b1.flushes')" = true
expect_record "barrier=0: in the pessimistic model acknowledged records are lost" \
	"$B0 | .durability.verdict == \"lost\" and .durability.pessimistic.points_lost > 0"
expect_record "barrier=0: in the optimistic model (no cache) nothing acknowledged is lost" \
	"$B0 | .durability.optimistic.points_lost == 0 and .durability.optimistic.unmountable == 0"
XF='select(.type == "cell" and .cell == "disk/xfs/defaults/dur")'
expect_record "xfs: nothing acknowledged lost at 8 points in either model, xfs_repair -n clean at each" \
	"$XF | .status == \"ok\" and .durability.verdict == \"ok\" and ([.durability.pessimistic, .durability.optimistic][] | .points == 8 and .points_lost == 0 and .fsck_runs == 8 and .fsck_errors == 0)"
"$FSM_ROOT/out/fsmatrix" report "$RUN" >"$RUN.report" 2>&1
check "the report puts each cell's speed and durability side by side" \
	grep -Eq "^  disk/ext4/barrier=0,data=ordered/dur: [0-9]+ op/s; durability lost: if the disks' cache is volatile \(pessimistic\) lost at [1-8] of 8 points" "$RUN.report"
t=$(records_console | jq -r -s '[.[] | select(.type == "cell") | .durability.check_s] | add | . * 10 | round / 10')
info "24 crash points (3 cells x 8, each under 2 models) checked in ${t:-?} s of guest time"
rm -rf "$D"

# A log disk too small for what the cell writes: the target stops logging
# (logging_disabled) and the cell's durability is inconclusive.
boot overflow --disks 3 --size 64M --timeout 300 --plan "$FSM_ROOT/tests/plans/durability-overflow.ini"
expect_status "overflow: the run completes (exit 0)" 0
expect_record "overflow: a 64 MiB log under a 96 MiB stream overflows (logging_disabled): durability inconclusive, not ok" \
	"select(.type == \"cell\") | .status == \"ok\" and .durability.verdict == \"inconclusive\" and (.durability.log_status | test(\"logging_disabled\"))"
