# 12-dry-run: fsmatrix.dry=1 expands the plan and shows every cell with its commands, as
# `fsmatrix check` does, records them in the "plan" event, and runs none: no cell record,
# no mdadm, and the test disks are still all zeros afterwards.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

boot dry --disks 4 --size 400M --keep --timeout 300 --append fsmatrix.dry=1 \
	--plan "$FSM_ROOT/tests/plans/matrix-stripes.ini"
expect_status "the dry run completes (exit 0)" 0
expect_record "the plan event lists all 12 cells with their commands" \
	'select(.type == "event" and .event == "plan") | .dry and (.cell_list | length == 12) and (.cell_list | all(.[]; .mkfs[0] | startswith("mkfs.")))'
expect_record "the raid5 cell's mdadm and mkfs carry the derived geometry" \
	'select(.type == "event" and .event == "plan") | .cell_list[] | select(.cell == "r5-c64k/ext4/defaults/seq") | (.mdadm | index("--chunk=64K")) and (.mkfs | any(.[]; test("stride=16,stripe_width=32")))'
expect_console "the console shows the cells as fsmatrix check does" '^  mkfs +mkfs\.xfs -f -d su=64k,sw=2 /dev/md0'
expect_record "no cell record" '[select(.type == "cell")] | length == 0'
expect_record "the trailer: 12 cells planned, none run" \
	'select(.type == "trailer") | .cells == 12 and ([.counts[]] | add) == 0'
# A dry run arms no watchdog, so the watchdog core is not loaded in the drivers' idle time
# either: every module it loads is one the hardware or the results partition asked for.
no_watchdog_core() {
	local names
	names=$(records_console | jq -c -s '[.[] | select(.type == "event" and .event == "modules") | .modules[].name]')
	jq -e -n --argjson n "$names" '($n | length > 0) and all($n[]; . != "watchdog")' >/dev/null ||
		{ echo "modules loaded: $names"; return 1; }
}
check "no watchdog core loaded: a dry run arms no watchdog" no_watchdog_core
zeros() {
	local f
	for f in "$RUN"/disks/fsmtest*.img; do
		cmp -s "$f" <(head -c "$(stat -c %s "$f")" /dev/zero) || { echo "$f is not all zeros"; return 1; }
	done
}
check "the test disks were not written" zeros
rm -rf "$RUN/disks"
