# shards: the wall time of a plan run as two LAVA shards side by side (two lava-run jobs at
# once, each its own TCG guest) against the same plan as one job, on this machine: what
# tests/boot/24-lava.sh measures, here at fsmatrix.scale=0.2 so that the cells, not the
# boots, are most of the time. Goal: at most 0.6 on 2 cores.
# shellcheck shell=bash

bench_shards() {
	local runs=$BENCH_DIR/runs times=$BENCH_DIR/lava-times.json out=$BENCH_DIR/shards.out
	echo "== shards: the default plan as 2 LAVA shards side by side against 1 job (wall seconds)"
	command -v lava-run >/dev/null 2>&1 || { unmeasured shard_speedup "lava-run is not installed (make deps)"; return; }
	rm -f "$times"
	FSM_TEST_RUNS=$runs FSM_LAVA_TIMES=$times FSM_LAVA_SCALE=0.2 FSM_TEST_OUT=/dev/null \
		bash "$FSM_ROOT/tests/boot/24-lava.sh" 3>"$out" >/dev/null 2>&1
	if grep -q '^FAIL' "$out" || [ ! -s "$times" ]; then
		unmeasured shard_speedup "tests/boot/24-lava.sh did not pass: $(grep -m1 '^FAIL' "$out" | cut -c1-160)"
		return
	fi
	figure shard_speedup "$(jq '{value: .ratio, goal: "<= 0.6 on 2 cores", met: (.ratio <= 0.6), sharded_s, unsharded_s,
		shards, plan, scale, host_cpus, host_loadavg,
		mark: "wall time of 2 lava-run jobs side by side (fsmatrix.shard=1/2, 2/2) over 1 job of every cell"}' "$times")"
	show shard_speedup "$(jq -r '"\(.ratio * 1000 | round / 1000) (2 shards \(.sharded_s | round) s, whole \(.unsharded_s | round) s; goal <= 0.6: \(if .ratio <= 0.6 then "met" else "missed" end))"' "$times")"
	cmd "FSM_LAVA_SCALE=0.2 tests/boot/24-lava.sh"
}
