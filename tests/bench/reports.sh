# reports: what `fsmatrix report` costs on a large run, in seconds per 10,000 cells: a real
# run's cells and time series replicated to 4,000 cells (tests/scale/make-run), the text
# report read and written 3 times, the least CPU time (user + system) kept. Goal: the cost
# per cell stays the same at any size (tests/scale/run.sh checks 10x the cells within 12x).
# shellcheck shell=bash

bench_reports() {
	local run=$BENCH_DIR/scale-run.jsonl copies=500 i s best= secs=()
	echo "== reports: fsmatrix report on a run of $((copies * 8)) cells (CPU seconds per 10k cells)"
	[ -x "$FSM_ROOT/out/fsmatrix" ] || { unmeasured report_s_per_10k_cells "out/fsmatrix is not built"; return; }
	"$FSM_ROOT/tests/scale/make-run" $copies >"$run" ||
		{ unmeasured report_s_per_10k_cells "tests/scale/make-run failed"; return; }
	for i in 1 2 3; do
		/usr/bin/time -o "$BENCH_DIR/report-time" -f "%U %S" "$FSM_ROOT/out/fsmatrix" report "$run" >/dev/null 2>&1
		case $? in 0 | 3 | 4) ;; *) unmeasured report_s_per_10k_cells "fsmatrix report failed"; return ;; esac
		s=$(awk '{ print $1 + $2 }' "$BENCH_DIR/report-time")
		secs+=("$s")
		[ -n "$best" ] && awk -v a="$s" -v b="$best" 'BEGIN { exit !(a >= b) }' || best=$s
	done
	local cells=$((copies * 8)) bytes per
	bytes=$(stat -c %s "$run")
	per=$(awk -v s="$best" -v c=$cells 'BEGIN { printf "%.3f", s * 10000 / c }')
	figure report_s_per_10k_cells "$(jq -n --argjson v "$per" --argjson cells $cells \
		--argjson bytes "$bytes" --argjson runs "$(stats "${secs[@]}")" \
		'{value: $v, cells: $cells, input_bytes: $bytes, cpu_s: $runs,
		  mark: "least CPU time of 3 fsmatrix report runs, per 10,000 cells"}')"
	show report_s_per_10k_cells "$per ($cells cells, $((bytes / 1048576)) MiB, least of ${secs[*]} s)"
	cmd "tests/scale/make-run $copies > run.jsonl; fsmatrix report run.jsonl"
	rm -f "$run"
}
