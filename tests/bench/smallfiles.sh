# smallfiles: our engine creating the generated file set in-process against GNU tar
# extracting a tarball of the identical set, into the same host filesystem
# (build/bench/smallfiles/), each followed by a timed syncfs, runs interleaved A B B A.
# Both are timed by the same code and clock: `fsmatrix workload tar` forks tar and times it
# from fork to reaping, then syncfs, as `fsmatrix workload smallfiles` times its own writes
# then syncfs. Before every run the previous tree is removed and the page cache dropped
# (untimed); then tar's archive is read once, so that each side starts with its input in
# memory (ours holds its contents in a buffer made before timing).
# shellcheck shell=bash

bench_smallfiles() {
	local dir=$BENCH_DIR/smallfiles fsm=$FSM_ROOT/out/fsmatrix log=$BENCH_DIR/smallfiles.log
	local i side oj tj a=() b=() set
	echo "== smallfiles: fsmatrix workload smallfiles against GNU tar -xf of the same set ($RUNS runs each after a warm-up, interleaved A B B A ...)"
	: >"$log"
	rm -rf "$dir" && mkdir -p "$dir"
	if ! "$fsm" workload gen-tree --list "$dir/src" >"$dir/list" 2>>"$log" ||
		! tar -cf "$dir/set.tar" -C "$dir/src" --no-recursion -T "$dir/list" 2>>"$log"; then
		unmeasured smallfiles_ratio "unable to make the file set and its tarball ($(tail -n 1 "$log"))"
		return
	fi
	rm -rf "$dir/src"
	# Run 0 is a warm-up of each side, not counted (as for seqwrite).
	for i in $(seq 0 "$RUNS"); do
		for side in $(order "$i" ours tar); do
			rm -rf "$dir/ours" "$dir/tar"
			drop_caches
			if [ $side = ours ]; then
				oj=$("$fsm" workload smallfiles "$dir/ours" 2>>"$log") &&
					oj=$(jq -ec 'select(.type == "workload" and .error == null)' <<<"$oj") ||
					{ unmeasured smallfiles_ratio "ours failed in run $i: $(tail -n 1 "$log")"; return; }
			else
				cat "$dir/set.tar" >/dev/null
				tj=$("$fsm" workload tar "$dir/set.tar" "$dir/tar" 2>>"$log") &&
					tj=$(jq -ec 'select(.type == "workload" and .error == null and .status == 0)' <<<"$tj") ||
					{ unmeasured smallfiles_ratio "tar failed in run $i: $(tail -n 1 "$log")"; return; }
			fi
		done
		[ -n "${set:-}" ] || set=$(jq -nc --argjson o "$oj" --argjson t "$tj" \
			'{files: $o.files, dirs: $o.dirs, bytes: $o.bytes, seed: $o.seed,
			  same_set: ($o.files == $t.files and $o.bytes == $t.bytes)}')
		[ "$i" = 0 ] && continue
		a+=("$(jq '.time_s + .sync_s' <<<"$oj")") b+=("$(jq '.time_s + .sync_s' <<<"$tj")")
	done
	rm -rf "$dir/ours" "$dir/tar"
	figure smallfiles_ratio "$(jq -n --argjson o "$(stats "${a[@]}")" --argjson t "$(stats "${b[@]}")" \
		--argjson set "$set" --arg fs "$(df --output=fstype "$BENCH_DIR" | tail -n 1)" \
		--argjson tarbytes "$(stat -c %s "$dir/set.tar")" --arg tarv "$(tar --version | head -n 1)" \
		'{value: ($o.median / $t.median), goal: "<= 1.0", ours_s: $o, tar_s: $t, set: $set,
		  tar_version: $tarv, archive_bytes: $tarbytes, filesystem: $fs,
		  timed: "creation or extraction, then syncfs of the target filesystem"}')"
	rm -rf "$dir"
	jq -r '.smallfiles_ratio | "\(.value * 1000 | round / 1000)  (ours \(.ours_s.median * 1000 | round / 1000) s / tar \(.tar_s.median * 1000 | round / 1000) s, medians incl. sync; goal <= 1.0)"' \
		"$FIGS/smallfiles_ratio.json" | sed 's/^/smallfiles_ratio     /'
	note "$(jq -r '.smallfiles_ratio | "set: \(.set.files) files, \(.set.dirs) dirs, \(.set.bytes) bytes (seed \(.set.seed)); tar extracted the same files and bytes: \(.set.same_set); CV ours \(.ours_s.cv * 1000 | round / 10)% / tar \(.tar_s.cv * 1000 | round / 10)%"' "$FIGS/smallfiles_ratio.json")"
	note "compared (DIR = build/bench/smallfiles; tree removed, page cache dropped before each run):"
	cmd "out/fsmatrix workload gen-tree --list DIR/src > DIR/list && tar -cf DIR/set.tar -C DIR/src --no-recursion -T DIR/list   (once, untimed)"
	cmd "out/fsmatrix workload smallfiles DIR/ours                 (creation + syncfs, timed inside)"
	cmd "cat DIR/set.tar > /dev/null; time sh -c 'tar -xf DIR/set.tar -C DIR/tar && sync -f DIR/tar'   (what out/fsmatrix workload tar DIR/set.tar DIR/tar times)"
}
