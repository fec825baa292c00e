# 30-series: each cell's time series. Every cell that ran its workload has one series
# record with the documented columns (a member's per disk, md's sync columns on an array),
# its rows advance in time and cover the workload, the target's write throughput over the
# intervals adds up to the bytes a seqwrite wrote within 5% (and to at least the data of a
# small-file set), and each series carries the sampler's own cost (how much is too much is
# make bench's to say: monitor_overhead, docs/performance.md).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

boot series --disks 3 --size 512M --timeout 600 --plan "$FSM_ROOT/tests/plans/series.ini"
expect_status "the run completes (exit 0)" 0

# jq over all records of the console: true, or the first complaint
all_records() { # JQ-PROGRAM over the array of records
	local out
	out=$(records_console | jq -e -r -s "$1" 2>&1) && return 0
	printf '%s\n' "$out" | head -n 3
	return 1
}
pairs='[.[] | select(.type == "cell" and .status == "ok")] as $cells
	| [.[] | select(.type == "series")] as $series
	| [$cells[] | . as $c | {c: $c, s: ([$series[] | select(.cell == $c.cell and .rep == $c.rep
		and .attempt == $c.attempt)] | first)}]'
# Each pair's bytes written by the series (write MB/s times each interval) over the cell's own
# bytes, for the cells of one workload type.
ratios='def ratios($w): map(select(.c.axes.wtype == $w) | .c.result.bytes as $b
	| (reduce .s.rows[] as $r ({prev: 0, sum: 0};
		{prev: $r[0], sum: (.sum + $r[1] * ($r[0] - .prev) * 1e6)}) | .sum) as $sum
	| {cell: .c.cell, ratio: ($sum / $b)});'
common='["t","write_mbps","read_mbps","util_pct","dirty_mb","writeback_mb","dirtied_mbps",
	"written_mbps","cpu_user_pct","cpu_sys_pct","cpu_iowait_pct"]'

check "every ok cell has one series record (8 cells)" all_records "$pairs"'
	| if length != 8 then "ok cells: \(length)"
	  else (map(select(.s == null) | .c.cell) | if length == 0 then true else "no series: \(.)" end) end'
check "the documented columns: the common ones, each member, md's sync" all_records "$pairs"'
	| map(.s | . as $s | ($s.columns[0:11] == '"$common"') and
		($s.columns[11:] == ([$s.members[] | "\(.):write_mbps", "\(.):util_pct"]
			+ (if $s.target == "md0" then ["sync_pct", "sync_mbps"] else [] end))))
	| all'
check "rows: one number per column, t rising, covering the workload" all_records "$pairs"'
	| map(.s as $s | .c.result as $r
		| ($s.rows | length) > 5 and ($s.rows | all(length == ($s.columns | length)))
		and ([$s.rows[][0]] | . == sort) and ($s.span_s >= ($r.total_s // ($r.time_s + $r.sync_s))))
	| all'
check "seqwrite: bytes written per interval add up to the workload's within 5%" all_records "$ratios$pairs"'
	| ratios("seqwrite")
	| if length != 4 then "seqwrite cells: \(length)"
	  else (map(select(.ratio < 0.95 or .ratio > 1.05)) | if length == 0 then true else "off: \(.)" end) end'
check "smallfiles: at least the file data was written" all_records "$ratios$pairs"'
	| ratios("smallfiles")
	| if length != 4 then "smallfiles cells: \(length)"
	  else (map(select(.ratio < 0.95)) | if length == 0 then true else "short: \(.)" end) end'
check "the members' writes: each raid5 member wrote (parity included)" all_records "$pairs"'
	| map(select(.s.target == "md0") | .s as $s
		| [$s.members[] as $m | ($s.columns | index("\($m):write_mbps")) as $i
			| [$s.rows[][$i]] | max > 0] | all)
	| length == 4 and all'
check "each series carries the sampler's cost: samples, CPU time, the same per sample" all_records '
	[.[] | select(.type == "series") | .cost
	 | .samples > 0 and .cpu_ms > 0 and .share_pct > 0
	   and ((.us_per_sample * .samples / 1000 - .cpu_ms) | fabs) <= .cpu_ms / 100 + 0.01]
	| length > 0 and all'
check "the results disk holds the same series records" \
	sh -c '[ "$(jq -c "select(.type == \"series\")" "$1"/results/*.jsonl | wc -l)" = 8 ]' sh "$RUN"
report_shows() {
	local out
	out=$("$FSM_ROOT/out/fsmatrix" report "$RUN" 2>&1) || { echo "report failed"; return 1; }
	printf '%s\n' "$out" | grep -q '^seq: inside the cells (time series)' ||
		{ echo "no time series table for seq"; return 1; }
	# a row per cell with five figures, the busiest member named by its disk
	[ "$(printf '%s\n' "$out" | grep -cE '  [0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +vd[b-d] [0-9]+%$')" = 8 ] ||
		{ echo "not 8 rows of figures"; return 1; }
}
check "the report shows each cell's figures from its series" report_shows

# md resyncing during the workload (resync = ignore): its progress and speed are in the series
boot resync --disks 2 --size 1G --timeout 600 --plan "$FSM_ROOT/tests/plans/series-resync.ini"
expect_status "resync: the run completes (exit 0)" 0
# md moves sync_completed on in steps (seen: 18.8% for the whole 1.4 s workload), so the
# progress is only required to be there, with a speed, in a cell that md was resyncing.
expect_record "resync: md's resync shows in the series: progress and a speed" \
	'select(.type == "series") | (.columns | index("sync_pct")) as $p | (.columns | index("sync_mbps")) as $s
	| ([.rows[][$p]] | max > 0) and ([.rows[][$s]] | max > 0)'
# The record reads md's state when the workload ends: on a fast host the resync of the 1 GiB
# members has ended by then (seen once: the workload took 4.9 s), so idle is right too.
expect_record "resync: and the cell record carries md's state after the workload" \
	'select(.type == "cell") | .status == "ok" and (.md.sync_action | IN("resync", "idle"))'
