# 10-matrix: the matrix end to end, in two small boots. matrix-stripes: levels
# none, 0, 1 and 5, ext4 with two mount sets and xfs, seqwrite. matrix-resync: raid6, a
# degraded raid6 and raid10 with ext2 and ext3, a two-pass smallfiles, resync = wait.
# Every planned cell must have a record with status ok and sane figures, and the stripe
# geometry derived from the array must show in tune2fs -l and in the xfs superblock's
# text (init/core/command/xfssb.c, as xfs_db's info prints it).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
PLANS=$FSM_ROOT/tests/plans

cells='select(.type == "cell")'
# expect_record tries its filter on each record alone; these checks need all of them at once.
expect_all() { # CHECK FILTER: FILTER gets the array of the console's records
	local out
	if out=$(records_console | jq -e -s "$2" 2>&1); then
		ok "$1"
	else
		fail "$1" "over all records, $2 gives ${out:-nothing}"
	fi
}
# every cell id `fsmatrix check` expands from PLAN, one per line
planned() { "$FSM_ROOT/out/fsmatrix" check "$1" --disks 4 | sed -n 's/^cell [0-9]*\/[0-9]*  \([^ ]*\)  rep .*/\1/p'; }
recorded() { records_console | jq -r "$cells | .cell"; }
every_cell_once() { # PLAN
	local d
	d=$(diff <(planned "$1" | sort) <(recorded | sort)) && return 0
	echo "planned and recorded cells differ: $(printf '%s' "$d" | grep '^[<>]' | head -n 3 | tr '\n' ' ')"
	return 1
}
geometry() { # CELL-ID-PREFIX REGEX: the cell's fs_geometry text has a line matching REGEX
	expect_record "$1: fs_geometry matches /$2/" \
		"$cells | select(.cell | startswith(\"$1\")) | .fs_geometry // \"\" | test(\"$2\")"
}

# ------------------------------------------------------------------ levels none, 0, 1, 5
boot stripes --disks 4 --size 400M --timeout 480 --plan "$PLANS/matrix-stripes.ini"
expect_status "stripes: the run completes (exit 0)" 0
expect_no_console "stripes: no kernel oops" 'Kernel panic|Oops:|BUG:|Call Trace:'
check "stripes: every planned cell has exactly one record" every_cell_once "$PLANS/matrix-stripes.ini"
expect_all "stripes: every cell is ok" "[.[] | $cells] | length == 12 and all(.[]; .status == \"ok\")"
expect_all "stripes: levels none, raid0, raid1, raid5 all ran" \
	"[.[] | $cells | .axes.level] | unique == [\"none\", \"raid0\", \"raid1\", \"raid5\"]"
expect_all "stripes: seqwrite figures are sane (all bytes, mbps > 0)" \
	"[.[] | $cells] | all(.[]; .result.bytes == 16777216 and .result.mbps > 0 and .result.mbps_noflush >= .result.mbps)"
expect_all "stripes: both ext4 mount sets are in effect (/proc/mounts)" \
	"[.[] | $cells | select(.axes.fs == \"ext4\") | .mount_effective] | any(.[]; test(\"data=writeback\")) and any(.[]; test(\"data=writeback\") | not)"
expect_all "stripes: every step of every cell succeeded or was expected to fail" \
	"[.[] | $cells | .steps[] | select(.status != 0 and (.argv[1] // \"\") != \"--zero-superblock\")] | length == 0"
expect_all "stripes: md --detail, queue and df recorded for the arrays" \
	"[.[] | $cells | select(.axes.level != \"none\")] | all(.[]; (.md_detail | test(\"Raid Level\")) and .queue.scheduler != null and .df_after.used > .df_before.used)"
# raid5 over 3 at 64k: 2 data disks, 16 blocks of 4k per chunk, stripe 32; raid0 over 2 alike
geometry "r5-c64k/ext4" 'RAID stride: +16\n'
geometry "r5-c64k/ext4" 'RAID stripe width: +32\n'
geometry "r0-c64k/ext4" 'RAID stripe width: +32\n'
geometry "r5-c64k/xfs" 'sunit=16 +swidth=32 blks'
geometry "r0-c64k/xfs" 'sunit=16 +swidth=32 blks'
expect_record "stripes: no derived geometry on raid1 (nothing striped)" \
	"$cells | select(.cell == \"r1/ext4/defaults/seq\") | .fs_geometry | test(\"RAID stride\") | not"
expect_record "stripes: the trailer counts 12 ok" \
	'select(.type == "trailer") | .cells == 12 and .counts.ok == 12 and .counts.error == 0'
expect_console "stripes: progress lines between records" '^\[12/12\] r5-c64k xfs noatime seq rep 1/1: [0-9.]+ MB/s'

# ------------------------------------------------------------------ raid6, degraded raid6, raid10
boot resync --disks 4 --size 128M --timeout 480 --plan "$PLANS/matrix-resync.ini"
expect_status "resync: the run completes (exit 0)" 0
check "resync: every planned cell has exactly one record" every_cell_once "$PLANS/matrix-resync.ini"
expect_all "resync: every cell is ok" "[.[] | $cells] | length == 6 and all(.[]; .status == \"ok\")"
expect_all "resync: ext2 and ext3 both ran" "[.[] | $cells | .axes.fstype] | unique == [\"ext2\", \"ext3\"]"
expect_all "resync: smallfiles figures are sane (files > 0, two passes, rates > 0)" \
	"[.[] | $cells] | all(.[]; .result.files > 0 and .result.files_per_s > 0 and .result.mbps > 0 and (.result.passes | length) == 2)"
expect_record "resync: the degraded raid6 runs with 2 members missing" \
	"$cells | select(.axes.array == \"r6d\") | .md.degraded == \"2\" and (.disks | length) == 2"
expect_all "resync: resync_s recorded for every array made (in the cell that made it), and md idle before every workload" \
	"[.[] | $cells] | all(.[]; (.resync_s | type) == (if .reused == \"none\" then \"number\" else \"null\" end) and .md.sync_action == \"idle\") and any(.[]; .reused == \"array\")"
expect_record "resync: the healthy raid6 really resynced (resync_s > 0)" \
	"$cells | select(.axes.array == \"r6\") | .resync_s > 0"
# raid6 over 4 at 16k: 2 data disks, stride 4, stripe 8; raid10 over 4 at 32k: 2, 8, 16
geometry "r6-c16k/ext2" 'RAID stride: +4\n'
geometry "r6d-c16k/ext3" 'RAID stripe width: +8\n'
geometry "r10-c32k/ext2" 'RAID stripe width: +16\n'
expect_record "resync: ext3's tune2fs ran" \
	"$cells | select(.axes.fs == \"ext3\") | any(.steps[]; .argv[0] == \"tune2fs\" and .argv[1] == \"-c0\" and .status == 0)"
check "resync: records on the console and in the results file are identical" \
	diff -q <(records_console) <(records_results)
