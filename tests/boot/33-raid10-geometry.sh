# 33-raid10-geometry: the stripe geometry fsmatrix derives for raid10's layouts agrees with
# what md itself reports after create (queue/optimal_io_size), in a real boot of
# tests/plans/raid10-layouts.ini: md counts a raid10's stripe as its members over the near
# copies when that divides evenly, else every member, whatever the far or offset copies.
# So n2 on 3 members is 3 disks' worth, f2 on 3 too, o2 on 4 is 4, and n2 on 4 is 2; each
# mkfs.ext4 is given that stripe_width, and no cell warns of a difference.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

boot layouts --disks 4 --size 256M --timeout 900 --plan "$FSM_ROOT/tests/plans/raid10-layouts.ini"
expect_status "the run completes (exit 0)" 0
# ARRAY DATA_DISKS: md's optimal I/O size and mkfs's stripe_width (64k chunk, 4k blocks)
for row in "n2x3 3" "f2x3 3" "o2x4 4" "n2x4 2"; do
	set -- $row
	expect_record "$1: md reports $2 disks' worth, mkfs is given stripe_width=$((16 * $2)), no warning" \
		"select(.type == \"cell\" and (.cell | startswith(\"$1-\"))) | .status == \"ok\" and
		 .md.optimal_io_size == \"$((65536 * $2))\" and
		 ([.steps[].argv | select(.[0] == \"mkfs.ext4\") | join(\" \") | test(\"stripe_width=$((16 * $2))\")] | any) and
		 ([.warnings[] | select(test(\"optimal I/O\"))] | length == 0)"
done
