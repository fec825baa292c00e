# seqwrite: our engine (the host CLI runs the code /init runs) against fio, on the same host
# filesystem (build/bench/seqwrite/), buffered and O_DIRECT, runs interleaved A B B A, the
# page cache dropped before every run. Both sides flush inside the timed region: ours with
# fdatasync, fio with end_fsync=1 (its bandwidth counts the final fsync). Both start from no
# file: ours unlinks its file afterwards, fio is given --unlink=1; fio otherwise keeps its
# defaults (it preallocates the file with fallocate before writing, as an expert's plain
# command would). One uncounted warm-up run of each side precedes the counted ones.
# shellcheck shell=bash

bench_seqwrite() {
	local dir=$BENCH_DIR/seqwrite mode i side ours fio oj fj err=
	local -A raw=()
	echo "== seqwrite: fsmatrix workload seqwrite against fio ($SEQ_SIZE, bs 1m, $RUNS runs each after a warm-up, interleaved A B B A ...)"
	command -v fio >/dev/null || { unmeasured seqwrite_ratio "fio is not installed (make deps)";
		unmeasured seqwrite_cv_ratio "fio is not installed (make deps)"; return; }
	rm -rf "$dir" && mkdir -p "$dir"
	for mode in buffered direct; do
		local dflag= fflag=
		[ $mode = buffered ] || dflag=--direct fflag=--direct=1
		local a=() b=()
		# Run 0 of each side is a warm-up, not counted: the first write after the page
		# cache was dropped (and after the image build) ran several times slower here.
		for i in $(seq 0 "$RUNS"); do
			for side in $(order "$i" ours fio); do
				drop_caches
				if [ $side = ours ]; then
					oj=$("$FSM_ROOT/out/fsmatrix" workload seqwrite --size "$SEQ_SIZE" --bs 1m $dflag \
						"$dir/ours.dat" 2>>"$BENCH_DIR/seqwrite.log") &&
						ours=$(jq -er 'select(.type == "workload") | .mbps' <<<"$oj") ||
						{ err="ours failed in run $i ($mode): $(tail -n 1 "$BENCH_DIR/seqwrite.log")"; break 3; }
				else
					fj=$(fio --name=seq --rw=write --bs=1m --size="$SEQ_SIZE" --end_fsync=1 $fflag \
						--unlink=1 --filename="$dir/fio.dat" --output-format=json 2>>"$BENCH_DIR/seqwrite.log") &&
						fio=$(jq -er '.jobs[0] | select(.error == 0) | .write.bw_bytes / 1e6' <<<"$fj") ||
						{ err="fio failed in run $i ($mode): $(tail -n 1 "$BENCH_DIR/seqwrite.log")"; break 3; }
				fi
			done
			[ "$i" = 0 ] || a+=("$ours") b+=("$fio")
		done
		raw[$mode]=$(jq -n --argjson o "$(stats "${a[@]}")" --argjson f "$(stats "${b[@]}")" \
			'{ours_mbps: $o, fio_mbps: $f, ratio: ($o.median / $f.median),
			  cv_ratio: (if $o.cv == null or $f.cv == null or $f.cv == 0 then null else $o.cv / $f.cv end)}')
	done
	rm -rf "$dir"
	if [ -n "$err" ]; then
		unmeasured seqwrite_ratio "$err"
		unmeasured seqwrite_cv_ratio "$err"
		return
	fi
	local all
	all=$(jq -n --argjson b "${raw[buffered]}" --argjson d "${raw[direct]}" \
		--arg fs "$(df --output=fstype "$BENCH_DIR" | tail -n 1)" --arg size "$SEQ_SIZE" \
		'{buffered: $b, direct: $d, filesystem: $fs, size: $size, runs: $b.ours_mbps.n,
		  mb: "10^6 bytes"}')
	# The figure is the worse of the two modes; both are under it.
	figure seqwrite_ratio "$(jq '{value: ([.buffered.ratio, .direct.ratio] | min), goal: ">= 0.98"} + .' <<<"$all")"
	figure seqwrite_cv_ratio "$(jq '{value: ([.buffered.cv_ratio, .direct.cv_ratio] | if any(. == null) then null else max end),
		goal: "<= 1.2", buffered: {ours_cv: .buffered.ours_mbps.cv, fio_cv: .buffered.fio_mbps.cv, cv_ratio: .buffered.cv_ratio},
		direct: {ours_cv: .direct.ours_mbps.cv, fio_cv: .direct.fio_mbps.cv, cv_ratio: .direct.cv_ratio}}' <<<"$all")"
	show seqwrite_ratio "$(fmt "$(jq .seqwrite_ratio.value "$FIGS/seqwrite_ratio.json")")  (worse of the two modes; goal >= 0.98)"
	for mode in buffered direct; do
		note "$(jq -r --arg m $mode '.[$m] | "\($m): ours \(.ours_mbps.median * 10 | round / 10) MB/s / fio \(.fio_mbps.median * 10 | round / 10) MB/s (medians) = \(.ratio * 1000 | round / 1000)"' <<<"$all")"
	done
	show seqwrite_cv_ratio "$(fmt "$(jq .seqwrite_cv_ratio.value "$FIGS/seqwrite_cv_ratio.json")")  (ours' CV / fio's CV, the worse mode; goal <= 1.2)"
	for mode in buffered direct; do
		note "$(jq -r --arg m $mode '.[$m] | "\($m): CV ours \(.ours_mbps.cv * 1000 | round / 10)% / fio \(.fio_mbps.cv * 1000 | round / 10)%"' <<<"$all")"
	done
	note "compared (DIR = build/bench/seqwrite; the page cache dropped before each run):"
	cmd "out/fsmatrix workload seqwrite --size $SEQ_SIZE --bs 1m [--direct] DIR/ours.dat"
	cmd "fio --name=seq --rw=write --bs=1m --size=$SEQ_SIZE --end_fsync=1 [--direct=1] --unlink=1 --filename=DIR/fio.dat --output-format=json"
}
