# 44-twelve-disks: the shipped rootfs/plans/ext-vs-xfs-12disk.ini on twelve sparse 64 GiB
# disks (qemu/run --prealloc none: raw files that take no room until written), cut down to
# what TCG runs in minutes: one repetition, resync = assume-clean, ext4 (with few inodes and a
# small journal, since lazy init is off and a 704 GiB ext4 writes 12 GiB of inode tables) and
# xfs, fsmatrix.scale=0.1 of `size = 2x ram` with 512 MiB of RAM (about 100 MB a cell):
#  - the guest takes the twelve disks and both cells end ok on the raid5 of all twelve;
#  - each cell's size is 0.1 x 2 x MemTotal, recorded with its formula;
#  - the plan event's estimate is for these disks (64 GiB each) and this RAM, with no resync
#    (assume-clean) and, with reuse = array, one array created for the two cells;
#  - the progress line after the first cell carries an ETA, the last one none.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

FSM=$FSM_ROOT/out/fsmatrix
OUT=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}
mkdir -p "$FSM_TEST_RUNS"
PLAN=$OUT.ini
# The shipped plan, cut: ext2 and ext3 left out, one repetition, no resync.
# No reference set and no disks' speed (about 25 s a boot on twelve disks): tested elsewhere.
awk '/^\[/ { skip = ($0 == "[fs ext2]" || $0 == "[fs ext3]") }
	$0 == "[global]" { print; print "reference = no"; print "disk_speed = off"; next }
	!skip && /^repeat =/ { print "repeat = 1"; next }
	!skip && /^resync =/ { print "resync = assume-clean"; next }
	!skip && $0 == "type = ext4" { print; print "mkfs = -i 4194304 -J size=64"; next }
	!skip' "$FSM_ROOT/rootfs/plans/ext-vs-xfs-12disk.ini" >"$PLAN"
"$FSM" check "$PLAN" --mem 512m --disk-size 64g --scale 0.1 >"$OUT.check" 2>&1
check "the cut plan has two cells on the raid5 of twelve, one array created" sh -c \
	"grep -q '^plan ext-vs-xfs-12disk .*: 2 cells (2 per repetition x 1)\$' '$OUT.check' &&
	 grep -q '^  resync ~0s (1 array created), mkfs ~.* (2 filesystems)' '$OUT.check'"

boot run --disks 12 --size 64G --prealloc none --mem 512M --timeout 1500 --plan "$PLAN" \
	--append fsmatrix.scale=0.1
expect_status "the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
mem=$(jq -s '[.[] | select(.type == "header")][0].mem_bytes' "$j")
check "both cells ok on a raid5 of 12 devices" jq -e -s '
	[.[] | select(.type == "cell")] | length == 2 and
	all(.[]; .status == "ok" and .axes.level == "raid5" and .axes.devices == 12)' "$j"
check "each cell wrote 0.1 x 2 x MemTotal, recorded as 2x ram" jq -e -s --argjson mem "${mem:-0}" '
	[.[] | select(.type == "cell")] | all(.[]; .size.formula == "2x ram" and .size.basis == $mem and
	.size.bytes == (($mem * 2 * 0.1 / 1048576) | floor) * 1048576 and .result.bytes == .size.bytes)' "$j"
check "the plan event's estimate: 64 GiB disks, this RAM, no resync, one array for two cells" jq -e -s --argjson mem "${mem:-0}" '
	[.[] | select(.type == "event" and .event == "plan")][0].estimate |
	.disk_bytes == 68719476736 and .mem == $mem and .resync_s == 0 and .arrays == 1 and
	.filesystems == 2 and .total_s > 0 and .noreuse_s > .total_s' "$j"
check "reuse = array: the first cell made the array of twelve, the second took it over, as estimated" jq -e -s '
	[.[] | select(.type == "cell")] as $c |
	[$c[] | [.steps[] | select(.argv[0] == "mdadm" and .argv[1] == "--create")] | length] == [1, 0] and
	[$c[] | .reused] == ["none", "array"] and $c[1].reused_from == 1' "$j"
check "the progress line after the first cell has an ETA" grep -Eq '^\[1/2\] .*\(eta [0-9.]+ (s|min|h)\)' "$RUN/console.log"
check "the progress line after the last cell has none" sh -c "! grep -q '^\[2/2\] .*(eta' '$RUN/console.log'"
rm -rf "$RUN/disks"
