# 51-phantom: the instrument on disks of known speed (qemu/run --disk-mbps: qemu's block
# throttling sets each disk's speed from outside the guest). What PID 1 measures of each disk
# at boot is within 5% of its throttle; a raid5 of 4 with one member at half speed streams at
# the limit that member sets (3 x 4 MB/s), the bottleneck naming it; the same full-stripe
# writer on ext4 made with a stripe_width that is not the array's makes md read back what it
# overwrites (read-modify-write), the right geometry does not; a raid0 of 4 at 8 MB/s each
# streams at >= 0.9 x 32 MB/s with the disks as the bottleneck, its limit within 5% of the
# throttles' sum (limit_accuracy); at a speed too high for the emulated CPU, the disks are not
# named. A fifth disk, not handed over, stays byte-identical through the measurement.
# tests/run: foreground (each disk within 5% of its throttle: beside another guest at the same priority, one measured 4.6 of 8)
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

[ -s "$KERNEL" ] || skip_all "$KERNEL is missing (make image)"
[ -s "$INITRD" ] || skip_all "$INITRD is missing (make image)"

at() { printf 'select(.type == "cell" and .cell == "%s")' "$1"; }
speeds() { records_console | jq -c 'select(.type == "event" and .event == "disk-speed")'; }
# the guest's name of the disk with serial S, from the header
name_of() { records_console | jq -r --arg s "$1" 'select(.type == "header") | .disks[] | select(.serial == $s) | .name'; }

RUN=$FSM_TEST_RUNS/51-phantom-r5
rm -rf "$RUN" && mkdir -p "$RUN/disks"
for i in 0 1 2 3; do truncate -s 128M "$RUN/disks/fsmtest$i.img"; done
head -c 128M /dev/urandom >"$RUN/disks/fsmtest4.img"
snapshot "$RUN/disks/fsmtest4.img"
boot r5 --disks 5 --size 128M --disk-mbps 8,8,8,4,8 --reuse --keep --no-select --timeout 600 \
	--plan "$FSM_ROOT/tests/plans/phantom-r5.ini" \
	--append "fsmatrix.disks=serial:fsmtest0,serial:fsmtest1,serial:fsmtest2,serial:fsmtest3"
expect_status "raid5: the run completes (exit 0)" 0
check "the throttles are written beside the run" grep -qx 'fsmtest3 bps-total=4000000 iops-total=0' "$RUN/disk-throttle"
slow=$(name_of fsmtest3)
expect_record "each disk's measured speed, written and read, within 5% of its throttle" \
	"select(.type == \"event\" and .event == \"disk-speed\") | [.disks[] | (if .name == \"$slow\" then 4 else 8 end) as \$t | (.write.mbps / \$t, .read.mbps / \$t) | . >= 0.95 and . <= 1.05] | length == 8 and all"
expect_record "raid5 with one member at half speed: the limit is 3 x 4 MB/s, the figure at >= 0.9 of it" \
	"$(at r5-c64k/right/defaults/full) | .status == \"ok\" and (.limit.mbps >= 11.4 and .limit.mbps <= 12.6) and .efficiency >= 0.9 and (.limit.rule | test(\"slowest member $slow\"))"
expect_record "raid5 with one member at half speed: the bottleneck is the disks, naming that member" \
	"$(at r5-c64k/right/defaults/full) | .bottleneck.kind == \"disks\" and (.bottleneck.evidence | test(\"^at [0-9]+% of what the members gave alone; $slow busy\"))"
expect_record "a stripe_width that is not the array's: read-modify-write" \
	"$(at r5-c64k/wrong/defaults/full) | .bottleneck.kind == \"read-modify-write\" and (.bottleneck.evidence | test(\"members read [0-9]+% of what they wrote\"))"
sha256_unchanged "the disk not handed over is byte-identical after the speed measurement" "$RUN/disks/fsmtest4.img"

boot r0 --disks 4 --size 128M --disk-mbps 8 --timeout 600 --plan "$FSM_ROOT/tests/plans/phantom-r0.ini"
expect_status "raid0 at 8 MB/s: the run completes (exit 0)" 0
expect_record "raid0 of 4 at 8 MB/s each: >= 0.9 x 32 MB/s, the disks the bottleneck" \
	"$(at r0-c64k/ext4/defaults/stream) | .status == \"ok\" and .figure.value >= 28.8 and .bottleneck.kind == \"disks\""
expect_record "limit_accuracy: the measured limit within 0.95-1.05 of the throttles' sum" \
	"$(at r0-c64k/ext4/defaults/stream) | .limit.mbps / 32 | . >= 0.95 and . <= 1.05"
limit=$(records_console | jq -r "$(at r0-c64k/ext4/defaults/stream) | .limit.mbps / 32")
echo "# limit_accuracy $limit" >&3

boot fast --disks 4 --size 128M --disk-mbps 1000 --timeout 600 --plan "$FSM_ROOT/tests/plans/phantom-r0.ini"
expect_status "raid0 at 1000 MB/s: the run completes (exit 0)" 0
expect_record "at a speed too high for the emulated CPU: below the limit, the disks not named" \
	"$(at r0-c64k/ext4/defaults/stream) | .status == \"ok\" and .efficiency < 0.9 and .bottleneck.kind != \"disks\" and .bottleneck.kind != null"
