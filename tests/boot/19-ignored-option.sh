# 19-ignored-option: a mount option the kernel ignores must not pass as applied. ext4 on 6.1
# mounts with nobh and oldalloc and only logs "Ignoring removed ... option": each such cell
# carries the kernel's line in its warnings and the option in mount_ignored, and the report
# lists it under Problems. Options the kernel applied, defaults it never shows and values in
# its own spelling are not flagged. Of two conflicting options (delalloc,nodelalloc) the one
# the kernel did not apply is flagged: a default it never shows is in effect only if its
# opposite is not shown.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

boot ignored --disks 1 --size 400M --timeout 400 --plan "$FSM_ROOT/tests/plans/ignored-options.ini"
expect_status "the run completes (exit 0)" 0
expect_record "nobh: the cell names nobh as ignored" \
	"$(cell disk/ext4/nobh/seq) | .status == \"ok\" and .mount_ignored == [\"nobh\"]"
expect_record "nobh: the kernel's own line is among the warnings" \
	"$(cell disk/ext4/nobh/seq) | .warnings | any(. == \"kernel: EXT4-fs: Ignoring removed nobh option\")"
expect_record "oldalloc,noatime: oldalloc ignored, noatime applied" \
	"$(cell disk/ext4/oldalloc,noatime/seq) | .mount_ignored == [\"oldalloc\"] and (.mount_effective | test(\"noatime\"))"
expect_record "defaults spelled out: nothing flagged" \
	"$(cell disk/ext4/data=ordered,barrier=1,commit=5/seq) | .status == \"ok\" and .mount_ignored == [] and .warnings == []"
expect_record "options the kernel shows in its own words: nothing flagged" \
	"$(cell disk/ext4/noatime,data=writeback,barrier=0,commit=30/seq) | .status == \"ok\" and .mount_ignored == []"
expect_record "delalloc,nodelalloc: the kernel applies the later, delalloc is flagged" \
	"$(cell disk/ext4/delalloc,nodelalloc/seq) | .status == \"ok\" and .mount_ignored == [\"delalloc\"] and (.mount_effective | test(\"nodelalloc\"))"
expect_record "xfs logbsize=262144 shown as 256k: nothing flagged" \
	"$(cell disk/xfs/noatime,logbsize=262144/seq) | .status == \"ok\" and .mount_ignored == []"
expect_console "the console says so during the run" '^  warning   nobh was ignored by the kernel'
report_says() {
	"$FSM_ROOT/out/fsmatrix" report "$RUN" 2>&1 | grep -E 'nobh was ignored by the kernel: the cell measured the defaults' ||
		{ echo "the report's Problems do not name nobh"; return 1; }
}
check "the report lists the nobh cell under Problems" report_says
