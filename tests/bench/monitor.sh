# monitor: what sampling a cell's time series costs the measurement. The same plan
# (tests/bench/monitor.ini: a 256 MiB seqwrite on ext4 on one disk, 3 repeats) is booted with
# `monitor = 100ms` and with `monitor = off`, in turn (on off off on on off: neither always
# first), 3 boots each; monitor_overhead is 1 - (median MB/s with the sampler) / (median MB/s
# without). The series records also say what each sample cost PID 1 in CPU time.
# shellcheck shell=bash

bench_monitor() {
	local src=$FSM_ROOT/tests/bench/monitor.ini runs=$BENCH_DIR/runs i side on=() off=() rc
	echo "== monitor: seqwrite with the time-series sampler on (100 ms) against off, under qemu"
	[ -s "$src" ] || { unmeasured monitor_overhead "tests/bench/monitor.ini is missing"; return; }
	mkdir -p "$runs"
	sed 's/^monitor = .*/monitor = off/' "$src" >"$runs/monitor-off.ini"
	cp "$src" "$runs/monitor-on.ini"
	for i in 0 1 2; do
		for side in $(order "$i" on off); do
			local run=$runs/monitor-$side-$i
			rm -rf "$run"
			"$FSM_ROOT/qemu/run" --run-dir "$run" --disks 1 --size 1G --timeout 900 \
				--plan "$runs/monitor-$side.ini" </dev/null >"$run.out" 2>&1
			rc=$?
			[ "$rc" = 0 ] || { unmeasured monitor_overhead "boot monitor-$side-$i did not complete (qemu/run status $rc; ${run#"$FSM_ROOT"/}/console.log)"; return; }
			local v
			v=$("$FSM_ROOT/qemu/records" "$run/console.log" | jq -r 'select(.type == "cell" and .status == "ok") | .result.mbps')
			[ -n "$v" ] || { unmeasured monitor_overhead "no ok cell in ${run#"$FSM_ROOT"/}"; return; }
			# shellcheck disable=SC2206
			if [ "$side" = on ]; then on+=($v); else off+=($v); fi
		done
	done
	local son soff cost
	son=$(stats "${on[@]}") soff=$(stats "${off[@]}")
	cost=$(cat "$runs"/monitor-on-*/console.log | "$FSM_ROOT/qemu/records" |
		jq -s '[.[] | select(.type == "series") | .cost] | {series: length,
			us_per_sample: (map(.us_per_sample) | sort | .[length / 2 | floor]),
			share_pct_median: (map(.share_pct) | sort | .[length / 2 | floor]),
			share_pct_max: (map(.share_pct) | max)}')
	figure monitor_overhead "$(jq -n --argjson on "$son" --argjson off "$soff" --argjson cost "$cost" \
		'{value: (1 - $on.median / $off.median), goal: "< 0.01", on_mbps: $on, off_mbps: $off,
		  sampler: $cost, plan: "tests/bench/monitor.ini", period_ms: 100}')"
	show monitor_overhead "$(fmt "$(jq -n --argjson on "$son" --argjson off "$soff" '1 - $on.median / $off.median')")  (median $(fmt "$(jq .median <<<"$son")") MB/s sampled, $(fmt "$(jq .median <<<"$soff")") MB/s not; ${#on[@]} cells each; goal < 0.01)"
	note "sampler: $(jq -r '"\(.us_per_sample) us of PID 1 CPU a sample (median of \(.series) series), \(.share_pct_median)% of the time watched (max \(.share_pct_max)%)"' <<<"$cost")"
	note "MB/s with monitor = 100ms: $(jq -c .values <<<"$son"); with monitor = off: $(jq -c .values <<<"$soff")"
	cmd "qemu/run --disks 1 --size 1G --plan tests/bench/monitor.ini   (and again with monitor = off)"
}
