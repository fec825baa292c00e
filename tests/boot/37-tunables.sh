# 37-tunables: kernel tunables as plan axes. A raid5 listed at two stripe cache sizes makes
# two cells with the size in their ids; in each, the tunables are written after the mount
# and read back: the stripe cache and md's worker threads on md0, readahead on md0 and every
# member, the scheduler on the members, the vm writeback ratios. What the kernel refused or
# did not take is flagged in tunables_ignored with a warning, as mount_ignored flags mount
# options: nr_requests past the queues' depth everywhere, and bfq on md0, which has no
# scheduler. The second cell finds what the first found: the vm values and the members'
# queues were put back after it. A dry run shows and records what each cell would write.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

C1=r5-c64k-scs256/ext4/defaults/seq
C2=r5-c64k-scs4096/ext4/defaults/seq

boot tunables --disks 3 --size 256M --timeout 600 --plan "$FSM_ROOT/tests/plans/tunables.ini"
expect_status "the run completes (exit 0)" 0
expect_record "the first cell: stripe cache 256 in its id and axes, ok" \
	"$(cell "$C1" '.status == "ok" and .axes.stripe_cache_size == 256')"
expect_record "the second cell: stripe cache 4096, ok" \
	"$(cell "$C2" '.status == "ok" and .axes.stripe_cache_size == 4096')"
expect_record "the stripe cache is applied on md0 and read back" \
	"$(cell "$C2" '.tunables.asked.stripe_cache_size == 4096 and .tunables.effective.stripe_cache_size == {"md0": 4096}')"
expect_record "md's worker threads applied on md0" \
	"$(cell "$C1" '.tunables.effective.group_thread_cnt == {"md0": 2}')"
expect_record "readahead applied on md0 and on each member" \
	"$(cell "$C1" '.tunables.effective.read_ahead_kb as $r | (["md0"] + .disks) as $at | ($r | keys | sort) == ($at | sort) and all($at[]; $r[.] == 512)')"
expect_record "bfq on each member, and the queue state after shows it" \
	"$(cell "$C1" '.tunables.effective.scheduler as $s | (.disks | length == 3 and all(.[]; $s[.] == "bfq")) and all(.queue.members[]; .scheduler | test("\\[bfq\\]"))')"
expect_record "bfq on md0 did not take: md0 shows none, flagged" \
	"$(cell "$C1" '.tunables.effective.scheduler.md0 == "none" and (.tunables_ignored | any(. == "scheduler@md0")) and ([.tunables_ignored[] | select(startswith("scheduler@"))] == ["scheduler@md0"])')"
expect_record "nr_requests past the depth: refused on md0 and every member, with a warning" \
	"$(cell "$C1" '((["md0"] + .disks | map("nr_requests@" + .)) - .tunables_ignored == []) and any(.warnings[]; test("^tunable nr_requests = 100000 not in effect on md0 \\(refused Invalid argument: [0-9]+\\)"))')"
expect_record "the vm ratios applied for the cell" \
	"$(cell "$C1" '.tunables.effective.dirty_ratio == {"vm": 7} and .tunables.effective.dirty_background_ratio == {"vm": 3}')"
expect_record "nothing applied is flagged" \
	"$(cell "$C1" '[.tunables_ignored[] | select(test("^(stripe_cache_size|group_thread_cnt|read_ahead_kb|dirty_)"))] == []')"
check "put back after the first cell: the second finds what the first found, not what it set" bash -c '
	jq -e -s --arg c1 "$2" --arg c2 "$3" "
		(map(select(.type == \"cell\" and .cell == \$c1))[0].tunables.found) as \$a |
		(map(select(.type == \"cell\" and .cell == \$c2))[0].tunables.found) as \$b |
		\$a.dirty_ratio.vm != 7 and \$b.dirty_ratio == \$a.dirty_ratio and
		\$b.dirty_background_ratio == \$a.dirty_background_ratio and
		(\$a.scheduler | del(.md0) | length == 3 and all(.[]; . != \"bfq\")) and
		(\$a.read_ahead_kb | del(.md0) | all(.[]; . != 512)) and
		(\$b.scheduler | del(.md0)) == (\$a.scheduler | del(.md0)) and
		(\$b.read_ahead_kb | del(.md0)) == (\$a.read_ahead_kb | del(.md0))" \
		"$1"/results/*.jsonl >/dev/null' _ "$RUN" "$C1" "$C2"
expect_record "bfq's module was loaded for the cell" \
	'select(.type == "event" and .event == "modules") | .modules | any(.name == "bfq" and .status == "ok")'
expect_console "the console says so during the run" '^  warning   tunable nr_requests = 100000 not in effect on md0'

# A dry run shows and records what each cell would write, and writes nothing.
boot dry --disks 3 --size 256M --timeout 300 --plan "$FSM_ROOT/tests/plans/tunables.ini" --append fsmatrix.dry=1
expect_status "the dry run completes (exit 0)" 0
expect_record "the dry run's cell list carries each cell's tunables" \
	'select(.type == "event" and .event == "plan") | .dry and (.cell_list | length == 2) and .cell_list[1].cell == "r5-c64k-scs4096/ext4/defaults/seq" and .cell_list[1].tunables.stripe_cache_size == 4096 and .cell_list[0].tunables.scheduler == "bfq"'
expect_console "the dry run shows them" '^  tunables  md0 and each member: scheduler=bfq nr_requests=100000 read_ahead_kb=512; md0: stripe_cache_size=4096'
