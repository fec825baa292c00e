# aa: the rig checks its own false positives on unthrottled disks
# (aa_false_positive_rate_unthrottled, first_cell_ratio; on disks of known speed: phantom.sh).
# tests/bench/aa.ini (12 cells x 5 repeats) boots twice under the same conditions and
# `fsmatrix compare` judges the two runs: every metric it calls faster or slower is a false
# positive, since nothing changed; the figure is their share of the metrics it tested, to set
# against its alpha (0.05, corrected by Holm-Bonferroni, so it should be far under). Then the
# same with order = sequential and warmup = 0. first_cell_ratio: the first cell of each boot
# (its first repeat) over the median of its other repeats, with the warm-up and without.
# shellcheck shell=bash

# _aa_boot NAME PLAN: one boot of the A/A plan; prints the run directory, or nothing.
_aa_boot() {
	local run=$BENCH_DIR/runs/aa-$1
	rm -rf "$run"
	"$FSM_ROOT/qemu/run" --run-dir "$run" --disks 1 --size 1G --timeout 2400 --plan "$2" \
		</dev/null >"$run.out" 2>&1 && echo "$run"
}

# _aa_first RUN: the first cell record of the boot (index 1, rep 1) over its other repeats'
# median, on the cell's main figure.
_aa_first() {
	"$FSM_ROOT/qemu/records" "$1/console.log" 2>/dev/null | jq -s '
		[.[] | select(.type == "cell" and .status == "ok" and .figure.value != null)] as $c
		| ($c | map(select(.index == 1 and .rep == 1)) | .[0]) as $f
		| if $f == null then null else
		  ([$c[] | select(.cell == $f.cell and .rep != 1) | .figure.value] | sort) as $o
		  | if ($o | length) == 0 then null else
		    ($o | if length % 2 == 1 then .[(length - 1) / 2] else (.[length / 2 - 1] + .[length / 2]) / 2 end) as $m
		    | {cell: $f.cell, metric: $f.figure.metric, first: $f.figure.value, others_median: $m,
		       ratio: ($f.figure.value / $m)} end end'
}

# _aa_rate A B: compare's verdicts on two runs as {tested, significant, rate, line}.
_aa_rate() {
	local line
	line=$("$FSM_ROOT/out/fsmatrix" compare "$1" "$2" 2>/dev/null | grep -m1 '^metrics: ')
	jq -n --arg l "$line" '($l | capture("metrics: (?<f>[0-9]+) faster, (?<s>[0-9]+) slower, (?<n>[0-9]+) no significant difference, (?<u>[0-9]+) not tested")) as $c
		| (($c.f | tonumber) + ($c.s | tonumber)) as $sig
		| ($sig + ($c.n | tonumber)) as $tested
		| {tested: $tested, significant: $sig, untested: ($c.u | tonumber),
		   rate: (if $tested > 0 then $sig / $tested else null end), line: $l}'
}

bench_aa() {
	local plan=$FSM_ROOT/tests/bench/aa.ini seq=$BENCH_DIR/aa-sequential.ini a b c d
	echo "== aa: the same plan booted twice and compared: false positives (12 cells x 5 repeats, twice, then with order = sequential and warmup = 0)"
	mkdir -p "$BENCH_DIR/runs"
	sed 's/^repeat = 5$/repeat = 5\norder = sequential\nwarmup = 0/' "$plan" >"$seq"
	a=$(_aa_boot a1 "$plan") && b=$(_aa_boot a2 "$plan") || {
		unmeasured aa_false_positive_rate_unthrottled "a boot of tests/bench/aa.ini did not complete (build/bench/runs/aa-a*.out)"
		unmeasured first_cell_ratio "a boot did not complete"
		return
	}
	c=$(_aa_boot s1 "$seq") && d=$(_aa_boot s2 "$seq") || c= d=
	local def seqr fw fs
	def=$(_aa_rate "$a" "$b")
	seqr=null
	[ -z "$c" ] || seqr=$(_aa_rate "$c" "$d")
	figure aa_false_positive_rate_unthrottled "$(jq -n --argjson d "$def" --argjson s "$seqr" \
		'{value: $d.rate, goal: "<= 0.05 (the alpha, before Holm-Bonferroni; corrected it should be near 0)",
		  default: $d, sequential_no_warmup: $s, plan: "tests/bench/aa.ini", runs: "build/bench/runs/aa-*"}')"
	show aa_false_positive_rate_unthrottled "$(fmt "$(jq .rate <<<"$def")")  ($(jq -r '"\(.significant) of \(.tested) metrics tested called different, \(.untested) not tested"' <<<"$def"); goal <= 0.05)"
	note "interleave, warmup 1: $(jq -r .line <<<"$def")"
	note "sequential, warmup 0: $(jq -r 'if . == null then "not measured" else .line end' <<<"$seqr")"
	fw=$(jq -s '[.[] | select(. != null)]' <(_aa_first "$a") <(_aa_first "$b"))
	fs=null
	[ -z "$c" ] || fs=$(jq -s '[.[] | select(. != null)]' <(_aa_first "$c") <(_aa_first "$d"))
	figure first_cell_ratio "$(jq -n --argjson w "$fw" --argjson s "$fs" \
		'{value: (if ($w | length) > 0 then ($w | map(.ratio) | add / length) else null end),
		  goal: "within the cell'"'"'s own spread (1 +- its RSD)", with_warmup: $w, without_warmup: $s,
		  without_warmup_value: (if $s == null or ($s | length) == 0 then null else ($s | map(.ratio) | add / length) end)}')"
	show first_cell_ratio "$(fmt "$(jq .first_cell_ratio.value "$FIGS/first_cell_ratio.json")")  (the boot's first cell over its other repeats, with one warm-up; without: $(fmt "$(jq .first_cell_ratio.without_warmup_value "$FIGS/first_cell_ratio.json")"))"
	cmd "qemu/run --disks 1 --size 1G --plan tests/bench/aa.ini   (twice), then: out/fsmatrix compare RUN1 RUN2"
}
