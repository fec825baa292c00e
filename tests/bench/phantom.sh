# phantom: the statistics and the limit proved on disks of known speed (qemu's throttling,
# docs/calibration.md). rootfs/plans/calibration.ini boots twice at 8 MB/s a disk and twice
# more (A/A: nothing changed): every metric compare calls faster or slower between two of
# them is a false positive (aa_false_positive_rate, with its Wilson 95% interval); the same
# plan at 7.2 MB/s a disk (10% lower) against each A boot: the share of the tested MB/s
# figures compare calls slower (detection_power_10pct); and each A boot's raid0 limit over the
# throttles' sum, 32 MB/s (limit_accuracy). The same boots, two a side, compared between boots
# (compare --vs: each run's mean one observation): aa_false_positive_rate_between_boots (a1 a2
# against a3 a4) and detection_power_10pct_between_boots (a1 a3 against b1 b2).
# shellcheck shell=bash

# _ph_boot NAME MBPS: one boot of the calibration plan; prints the run directory, or nothing.
_ph_boot() {
	local run=$BENCH_DIR/runs/phantom-$1
	rm -rf "$run"
	"$FSM_ROOT/qemu/run" --run-dir "$run" --disks 4 --size 256M --disk-mbps "$2" --timeout 1800 \
		--plan "$FSM_ROOT/rootfs/plans/calibration.ini" </dev/null >"$run.out" 2>&1 && echo "$run"
}

# _ph_counts A B (or A1 A2 --vs B1 B2): compare's counts of metrics faster, slower and the
# same, as JSON.
_ph_counts() {
	"$FSM_ROOT/out/fsmatrix" compare "$@" 2>/dev/null | grep -m1 '^metrics: ' |
		sed -E 's/^metrics: ([0-9]+) faster, ([0-9]+) slower, ([0-9]+) no significant.*/{"faster":\1,"slower":\2,"same":\3}/'
}

# _ph_mbps A B (or A1 A2 --vs B1 B2): of the MB/s rows compare tested, how many it called
# slower.
_ph_mbps() {
	local out
	out=$("$FSM_ROOT/out/fsmatrix" compare "$@" 2>/dev/null | grep ' MB/s ')
	jq -n --argjson t "$(grep -cE '(slower|faster|no significant difference)$' <<<"$out")" \
		--argjson s "$(grep -cE 'slower$' <<<"$out")" '{tested: $t, slower: $s}'
}

# _wilson K N: the 95% Wilson interval of a share K/N.
_wilson() {
	jq -n --argjson k "$1" --argjson n "$2" 'if $n == 0 then null else
		($k / $n) as $p | 1.96 as $z | ($z * $z) as $z2
		| (($p + $z2 / (2 * $n)) / (1 + $z2 / $n)) as $c
		| (($z / (1 + $z2 / $n)) * ((($p * (1 - $p) / $n) + $z2 / (4 * $n * $n)) | sqrt)) as $h
		| [([$c - $h, 0] | max), ([$c + $h, 1] | min)] end'
}

# _ph_between A1 A2 A3 A4 B1 B2: the between-boots figures, two boots a side.
_ph_between() {
	local aa det
	aa=$(_ph_counts "$1" "$2" --vs "$3" "$4")
	det=$(_ph_mbps "$1" "$3" --vs "$5" "$6")
	figure aa_false_positive_rate_between_boots "$(jq -n --argjson c "$aa" '($c.faster + $c.slower) as $k
		| ($k + $c.same) as $n | {value: (if $n > 0 then $k / $n else null end), n: $n, significant: $k,
		  goal: "<= 0.05", sides: "a1 a2 --vs a3 a4"}')"
	show aa_false_positive_rate_between_boots "$(jq -r '($c.faster + $c.slower) as $k | "\($k) of \($k + $c.same) tested metrics called different, two boots a side (compare --vs)"' --argjson c "$aa" -n)"
	figure detection_power_10pct_between_boots "$(jq -n --argjson d "$det" '{value: (if $d.tested > 0
		then $d.slower / $d.tested else null end), n: $d.tested, slower: $d.slower, goal: ">= 0.8",
		sides: "a1 a3 --vs b1 b2"}')"
	show detection_power_10pct_between_boots "$(jq -r '"\($d.slower) of \($d.tested) tested MB/s figures called slower at 10% less disk speed, two boots a side (compare --vs)"' --argjson d "$det" -n)"
}

bench_phantom() {
	echo "== phantom: calibration.ini on disks throttled to 8 MB/s (4 boots, A/A) and 7.2 MB/s (2 boots, B)"
	mkdir -p "$BENCH_DIR/runs"
	local a1 a2 a3 a4 b1 b2
	a1=$(_ph_boot a1 8) && a2=$(_ph_boot a2 8) && a3=$(_ph_boot a3 8) && a4=$(_ph_boot a4 8) || {
		for k in aa_false_positive_rate detection_power_10pct limit_accuracy; do
			unmeasured "$k" "a boot of the calibration plan did not complete (build/bench/runs/phantom-*.out)"
		done
		return
	}
	local c12 c34 k n
	c12=$(_ph_counts "$a1" "$a2")
	c34=$(_ph_counts "$a3" "$a4")
	k=$(jq -n --argjson x "$c12" --argjson y "$c34" '$x.faster + $x.slower + $y.faster + $y.slower')
	n=$(jq -n --argjson x "$c12" --argjson y "$c34" '$k + $x.same + $y.same' --argjson k "$k")
	figure aa_false_positive_rate "$(jq -n --argjson k "$k" --argjson n "$n" --argjson ci "$(_wilson "$k" "$n")" \
		--argjson p "[$c12, $c34]" '{value: (if $n > 0 then $k / $n else null end), n: $n, significant: $k,
		  ci95: $ci, pairs: $p, goal: "<= 0.05", plan: "rootfs/plans/calibration.ini at --disk-mbps 8"}')"
	show aa_false_positive_rate "$(fmt "$(jq -n --argjson k "$k" --argjson n "$n" 'if $n > 0 then $k / $n else null end')")  ($k of $n tested metrics called different over 2 A/A pairs; 95% CI $(_wilson "$k" "$n" | jq -c .); goal <= 0.05)"
	b1=$(_ph_boot b1 7.2) && b2=$(_ph_boot b2 7.2) || b1= b2=
	if [ -n "$b1" ]; then
		local d1 d2 ks ns
		d1=$(_ph_mbps "$a1" "$b1")
		d2=$(_ph_mbps "$a3" "$b2")
		ks=$(jq -n --argjson x "$d1" --argjson y "$d2" '$x.slower + $y.slower')
		ns=$(jq -n --argjson x "$d1" --argjson y "$d2" '$x.tested + $y.tested')
		figure detection_power_10pct "$(jq -n --argjson k "$ks" --argjson n "$ns" --argjson ci "$(_wilson "$ks" "$ns")" \
			'{value: (if $n > 0 then $k / $n else null end), n: $n, slower: $k, ci95: $ci, goal: ">= 0.8",
			  plan: "rootfs/plans/calibration.ini, A at 8 MB/s a disk, B at 7.2"}')"
		show detection_power_10pct "$(fmt "$(jq -n --argjson k "$ks" --argjson n "$ns" 'if $n > 0 then $k / $n else null end')")  ($ks of $ns tested MB/s figures called slower at 10% less disk speed; goal >= 0.8)"
		_ph_between "$a1" "$a2" "$a3" "$a4" "$b1" "$b2"
	else
		unmeasured detection_power_10pct "a boot at 7.2 MB/s did not complete (build/bench/runs/phantom-b*.out)"
	fi
	local acc
	acc=$(for r in "$a1" "$a2" "$a3" "$a4"; do "$FSM_ROOT/qemu/records" "$r/console.log" 2>/dev/null; done |
		jq -s '[.[] | select(.type == "cell" and .cell == "r0-c64k/ext4/defaults/stream" and .limit.mbps != null) | .limit.mbps / 32]')
	figure limit_accuracy "$(jq -n --argjson a "$acc" '{value: (if ($a | length) > 0 then ($a | add / length) else null end),
		values: $a, goal: "0.95-1.05", truth: "4 disks x 8 MB/s (qemu throttling.bps-total)"}')"
	show limit_accuracy "$(fmt "$(jq 'if length > 0 then add / length else null end' <<<"$acc")")  (raid0 of 4: its measured limit over the throttles' sum, $(jq length <<<"$acc") cells; goal 0.95-1.05)"
	cmd "qemu/run --disks 4 --size 256M --disk-mbps 8 --plan rootfs/plans/calibration.ini   (x4, and x2 at 7.2), then out/fsmatrix compare RUN1 RUN2"
}
