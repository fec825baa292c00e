# guest: our seqwrite against fio in the guest itself (seqwrite_guest_ratio,
# seqwrite_guest_cv_ratio): tests/bench/guest-seqwrite.ini boots once on one 1 GiB disk with
# ext4 and runs, repetition after repetition, our seqwrite and fio's equivalent job (the
# image's own fio 3.33: --rw=write --bs=1m --size=256m --end_fsync=1 --fallocate=none),
# buffered and O_DIRECT, the page cache dropped before each; repetition 1 is a warm-up. Both
# sides of the figure leave the file's blocks to be allocated as it is written; beside it,
# both preallocate (our fallocate = yes, fio's default). The figures come from the cell
# records: ours `mbps`, fio's `write_mbps` (bw_bytes, the final fsync counted).
# shellcheck shell=bash

bench_guest() {
	local plan=$FSM_ROOT/tests/bench/guest-seqwrite.ini run=$BENCH_DIR/runs/guest rc recs mode
	local -A raw=()
	echo "== guest: our seqwrite against fio in the same boot (256m, bs 1m, ext4, 5 counted repetitions each, interleaved)"
	mkdir -p "$BENCH_DIR/runs"
	rm -rf "$run"
	"$FSM_ROOT/qemu/run" --run-dir "$run" --disks 1 --size 1G --timeout 1800 --plan "$plan" \
		</dev/null >"$run.out" 2>&1
	rc=$?
	if [ "$rc" != 0 ]; then
		unmeasured seqwrite_guest_ratio "the boot did not complete (qemu/run status $rc; build/bench/runs/guest/console.log)"
		unmeasured seqwrite_guest_cv_ratio "the boot did not complete (qemu/run status $rc)"
		return
	fi
	recs=$("$FSM_ROOT/qemu/records" "$run/console.log" 2>/dev/null)
	for mode in buffered direct; do
		local ours_w=seq fio_w=fioseq a b
		[ $mode = buffered ] || ours_w=seqdirect fio_w=fiodirect
		mapfile -t a < <(jq -r --arg w "$ours_w" 'select(.type == "cell" and .status == "ok" and .rep > 1 and .axes.workload == $w) | .result.mbps' <<<"$recs")
		mapfile -t b < <(jq -r --arg w "$fio_w" 'select(.type == "cell" and .status == "ok" and .rep > 1 and .axes.workload == $w) | .result.write_mbps' <<<"$recs")
		if [ ${#a[@]} -lt 2 ] || [ ${#b[@]} -lt 2 ]; then
			unmeasured seqwrite_guest_ratio "$mode: ${#a[@]} ok cells of ours and ${#b[@]} of fio's (build/bench/runs/guest/console.log)"
			unmeasured seqwrite_guest_cv_ratio "$mode: too few ok cells"
			return
		fi
		raw[$mode]=$(jq -n --argjson o "$(stats "${a[@]}")" --argjson f "$(stats "${b[@]}")" \
			'{ours_mbps: $o, fio_mbps: $f, ratio: ($o.median / $f.median),
			  cv_ratio: (if $o.cv == null or $f.cv == null or $f.cv == 0 then null else $o.cv / $f.cv end)}')
	done
	# both preallocating: beside the figure, to show what the choice is worth on each side
	local c e
	mapfile -t c < <(jq -r 'select(.type == "cell" and .status == "ok" and .rep > 1 and .axes.workload == "fiofalloc") | .result.write_mbps' <<<"$recs")
	mapfile -t e < <(jq -r 'select(.type == "cell" and .status == "ok" and .rep > 1 and .axes.workload == "seqfalloc") | .result.mbps' <<<"$recs")
	raw[nofalloc]=null
	[ ${#c[@]} -lt 2 ] || [ ${#e[@]} -lt 2 ] || raw[nofalloc]=$(jq -n --argjson o "$(stats "${e[@]}")" \
		--argjson f "$(stats "${c[@]}")" '{ours_mbps: $o, fio_mbps: $f, ratio: ($o.median / $f.median)}')
	local all
	all=$(jq -n --argjson b "${raw[buffered]}" --argjson d "${raw[direct]}" --argjson n "${raw[nofalloc]}" \
		--arg run build/bench/runs/guest \
		'{buffered: $b, direct: $d, buffered_both_fallocate: $n, filesystem: "ext4 on one 1 GiB virtio disk, qemu TCG", size: "256m",
		  runs: $b.ours_mbps.n, mb: "10^6 bytes", run: $run, plan: "tests/bench/guest-seqwrite.ini"}')
	figure seqwrite_guest_ratio "$(jq '{value: ([.buffered.ratio, .direct.ratio] | min), goal: ">= 0.98"} + .' <<<"$all")"
	figure seqwrite_guest_cv_ratio "$(jq '{value: ([.buffered.cv_ratio, .direct.cv_ratio] | if any(. == null) then null else max end),
		goal: "<= 1.2", buffered: {ours_cv: .buffered.ours_mbps.cv, fio_cv: .buffered.fio_mbps.cv, cv_ratio: .buffered.cv_ratio},
		direct: {ours_cv: .direct.ours_mbps.cv, fio_cv: .direct.fio_mbps.cv, cv_ratio: .direct.cv_ratio}}' <<<"$all")"
	show seqwrite_guest_ratio "$(fmt "$(jq .seqwrite_guest_ratio.value "$FIGS/seqwrite_guest_ratio.json")")  (worse of the two modes; goal >= 0.98)"
	for mode in buffered direct; do
		note "$(jq -r --arg m $mode '.[$m] | "\($m): ours \(.ours_mbps.median * 10 | round / 10) MB/s / fio \(.fio_mbps.median * 10 | round / 10) MB/s (medians) = \(.ratio * 1000 | round / 1000)"' <<<"$all")"
	done
	note "$(jq -r '.buffered_both_fallocate | if . == null then "buffered, both preallocating: not measured" else "buffered, both preallocating (not in the figure): ours \(.ours_mbps.median * 10 | round / 10) MB/s / fio \(.fio_mbps.median * 10 | round / 10) MB/s = \(.ratio * 1000 | round / 1000)" end' <<<"$all")"
	show seqwrite_guest_cv_ratio "$(fmt "$(jq .seqwrite_guest_cv_ratio.value "$FIGS/seqwrite_guest_cv_ratio.json")")  (ours' CV / fio's CV, the worse mode; goal <= 1.2)"
	for mode in buffered direct; do
		note "$(jq -r --arg m $mode '.[$m] | "\($m): CV ours \(.ours_mbps.cv * 1000 | round / 10)% / fio \(.fio_mbps.cv * 1000 | round / 10)%"' <<<"$all")"
	done
	note "compared in the guest (each cell a fresh ext4; the page cache dropped before each):"
	cmd "seqwrite 256m in 1m blocks [O_DIRECT] [fallocate = yes] (the engine of fsmatrix workload seqwrite)"
	cmd "fio --output-format=json --name=fioseq --rw=write --bs=1048576 --size=268435456 [--direct=1] --end_fsync=1 --fallocate=none (fio's default native beside the figure)"
}
