# cells: how much of a cell's time is the harness setting up and tearing down (md create,
# mkfs, mount, umount, md stop) rather than the workload, per level and filesystem, from the
# step durations in the cell records of a small plan under qemu (tests/plans/
# matrix-stripes.ini: levels none, 0, 1, 5 x ext4 with two mount sets and xfs, 16 MiB
# seqwrite). A cell's time is the sum of its steps' ms plus its resync wait. Steps outside
# that list (wipes, mdadm --zero-superblock, tune2fs -l, dump-super, mdadm --detail) are
# counted apart as "other". The boot test 10-matrix runs the same plan: its run is reused
# when it completed with the current image.
# shellcheck shell=bash

# Each step's class from its argv, then per-cell sums (ms).
_CELL_JQ='
def class: .argv as $a | ($a | join(" ")) as $s
	| if $s | startswith("workload ") then "workload"
	  elif $a[0] == "mdadm" and ($a | index("--create")) then "create"
	  elif $a[0] == "mdadm" and ($a | index("--stop")) then "stop"
	  elif $a[0] | startswith("mkfs") then "mkfs"
	  elif $a[0] | startswith("mount") then "mount"
	  elif $a[0] | startswith("umount") then "umount"
	  else "other" end;
[.[] | select(.type == "cell" and .status == "ok")
 | {level: .axes.level, fs: .axes.fs,
    ms: (reduce (.steps[] | {k: class, ms}) as $s ({}; .[$s.k] += $s.ms)),
    resync_ms: ((.resync_s // 0) * 1000)}
 | .ms += {resync: .resync_ms}
 | .setup_teardown = ([.ms.create, .ms.mkfs, .ms.mount, .ms.umount, .ms.stop] | map(. // 0) | add)
 | .total = ([.ms[]] | add)]
| def share: {cells: length, setup_teardown_ms: (map(.setup_teardown) | add),
	      workload_ms: (map(.ms.workload // 0) | add), other_ms: (map(.ms.other // 0) | add),
	      resync_ms: (map(.ms.resync) | add), total_ms: (map(.total) | add)}
	| .share = (if .total_ms > 0 then .setup_teardown_ms / .total_ms else null end)
	| .other_share = (if .total_ms > 0 then .other_ms / .total_ms else null end);
{all: share,
 by_level_fs: (group_by([.level, .fs]) | map({level: .[0].level, fs: .[0].fs} + share)),
 by_step_ms: (map(.ms) | reduce .[] as $m ({}; reduce ($m | to_entries[]) as $e (.; .[$e.key] += $e.value)))}'

bench_cells() {
	local plan=$FSM_ROOT/tests/plans/matrix-stripes.ini run reused= rc
	echo "== cells: setup and teardown time as a share of each cell (tests/plans/matrix-stripes.ini under qemu)"
	[ -s "$plan" ] || { unmeasured cell_overhead_share "tests/plans/matrix-stripes.ini is missing"; return; }
	run=$FSM_ROOT/build/tests/runs/10-matrix-stripes
	if [ -s "$run/console.log" ] && grep -q '^completed' "$run/status" 2>/dev/null &&
		[ "$run/console.log" -nt "$FSM_ROOT/out/initramfs.img" ]; then
		reused=build/tests/runs/10-matrix-stripes
	else
		run=$BENCH_DIR/runs/cells
		rm -rf "$run"
		mkdir -p "$BENCH_DIR/runs"
		"$FSM_ROOT/qemu/run" --run-dir "$run" --disks 4 --size 400M --timeout 900 --plan "$plan" \
			</dev/null >"$run.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] || { unmeasured cell_overhead_share "the plan's boot did not complete (qemu/run status $rc; build/bench/runs/cells/console.log)"; return; }
	fi
	local res
	res=$("$FSM_ROOT/qemu/records" "$run/console.log" 2>/dev/null | jq -s "$_CELL_JQ") &&
		[ "$(jq '.all.cells' <<<"$res")" -gt 0 ] ||
		{ unmeasured cell_overhead_share "no cell record with status ok in ${run#"$FSM_ROOT"/}/console.log"; return; }
	figure cell_overhead_share "$(jq --arg run "${reused:-build/bench/runs/cells}" \
		'{value: .all.share, goal: "small against the workload (no fixed goal)", run: $run,
		  plan: "tests/plans/matrix-stripes.ini",
		  setup_teardown: "mdadm --create, mkfs, mount, umount, mdadm --stop",
		  total: "sum of every step of the cell plus its resync wait"} + .' <<<"$res")"
	jq -r '"\(.all.share * 1000 | round / 1000)  (setup+teardown \(.all.setup_teardown_ms) ms (\(.all.setup_teardown_ms / .all.cells | round) ms a cell) of \(.all.total_ms) ms over \(.all.cells) cells; other steps \(.all.other_share * 1000 | round / 10)%; workload \(.all.workload_ms) ms)"' \
		<<<"$res" | sed 's/^/cell_overhead_share  /'
	jq -r '.by_level_fs[] | "\(.level)/\(.fs): \(.share * 1000 | round / 1000) (\(.setup_teardown_ms) of \(.total_ms) ms, \(.cells) cells; other \(.other_share * 1000 | round / 10)%)"' <<<"$res" |
		while read -r l; do note "$l"; done
	note "ms by step over all cells: $(jq -c '.by_step_ms' <<<"$res")"
	# What reading each member's own state (identity, write cache, health) before and after
	# the cell adds to it: the cell records' devices_ms, against the cell's whole time.
	local cond
	cond=$("$FSM_ROOT/qemu/records" "$run/console.log" 2>/dev/null | jq -s '
		[.[] | select(.type == "cell" and .status == "ok" and (.devices_ms | type == "number"))] as $c
		| (.[] | select(.type == "header") | .boot.steps_ms | if .conditions and .watchdog then .conditions - .watchdog else null end) as $boot_ms
		| if ($c | length) == 0 then null else
		  {value: (($c | map(.devices_ms) | add) / ($c | length)), cells: ($c | length),
		   per_cell_total_ms: (($c | map([.steps[].ms] | add) | add) / ($c | length)),
		   boot_conditions_ms: $boot_ms,
		   goal: "a few ms a cell, small against the cell (no fixed goal)",
		   what: "devices_ms: reading every member from the device before and after the cell"} end' | head -c 2000)
	if [ -n "$cond" ] && [ "$cond" != null ]; then
		figure conditions_cost_ms "$cond"
		jq -r '"conditions_cost_ms  \(.value * 10 | round / 10)  (a cell of \(.per_cell_total_ms | round) ms on average, \(.cells) cells; the boot'"'"'s controls once: \(.boot_conditions_ms) ms)"' <<<"$cond"
	else
		unmeasured conditions_cost_ms "no cell record with devices_ms in ${run#"$FSM_ROOT"/}/console.log (an older image?)"
	fi
	note "source: ${reused:-build/bench/runs/cells}$([ -z "$reused" ] || echo " (the boot test run, reused)"); rerun by hand:"
	cmd "qemu/run --disks 4 --size 400M --plan tests/plans/matrix-stripes.ini   (then: qemu/records RUN/console.log, cell records' steps[].ms)"
}
