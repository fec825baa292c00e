# site: what `fsmatrix site` costs over a history of 1,000 runs of about the default plan's
# size (tests/scale/make-history: a real run's 56 cells and their series under 1,000 ids, a
# step in k001's cells at run 600), in CPU seconds (user + system, the least of 3): the first
# write (every page, each run's report among them), a write with nothing new, and a write
# after one run is added (the nightly case: only what it changed is rewritten); and how long
# headless Chromium takes to open the summary page and run its script, over an empty page's
# (the median of 3 differences, wall seconds).
# shellcheck shell=bash

# site_cpu LABEL ARGS...: the least CPU time of 3 runs of fsmatrix site ARGS, into $best;
# the last run's closing line into $BENCH_DIR/site-line
site_cpu() {
	local i s secs=()
	best=
	for i in 1 2 3; do
		[ "$1" = full ] && rm -rf "$BENCH_DIR/site"
		[ "$1" = added ] && { rm -rf "$BENCH_DIR/site" && cp -a "$BENCH_DIR/site-before" "$BENCH_DIR/site"; }
		/usr/bin/time -o "$BENCH_DIR/site-time" -f "%U %S" "$FSM_ROOT/out/fsmatrix" site --db "$BENCH_DIR/site.sqlite" \
			-o "$BENCH_DIR/site" >"$BENCH_DIR/site-line" 2>&1 || return 1
		s=$(awk '{ print $1 + $2 }' "$BENCH_DIR/site-time")
		secs+=("$s")
		[ -n "$best" ] && awk -v a="$s" -v b="$best" 'BEGIN { exit !(a >= b) }' || best=$s
	done
	eval "site_secs_$1=\"${secs[*]}\""
}

bench_site() {
	local runs=$BENCH_DIR/site-runs db=$BENCH_DIR/site.sqlite n=1000 full added same line chrome
	echo "== site: fsmatrix site over a history of $n runs (CPU seconds), the summary opened in Chromium"
	[ -x "$FSM_ROOT/out/fsmatrix" ] || { unmeasured site_full_s "out/fsmatrix is not built"; return; }
	rm -rf "$runs" "$db" "$BENCH_DIR/site" "$BENCH_DIR/site-before"
	"$FSM_ROOT/tests/scale/make-history" $((n + 1)) "$runs" ||
		{ unmeasured site_full_s "tests/scale/make-history failed"; return; }
	local batch
	for batch in 0 1 2 3; do
		"$FSM_ROOT/out/fsmatrix" history --db "$db" add $(ls "$runs"/run-*.jsonl | sed -n "$((batch * 250 + 1)),$((batch * 250 + 250))p") \
			>/dev/null 2>&1 || { unmeasured site_full_s "fsmatrix history add failed"; return; }
	done
	site_cpu full || { unmeasured site_full_s "fsmatrix site failed: $(tail -n 1 "$BENCH_DIR/site-line")"; return; }
	full=$best
	line=$(cat "$BENCH_DIR/site-line")
	site_cpu same || { unmeasured site_full_s "fsmatrix site failed"; return; }
	same=$best
	cp -a "$BENCH_DIR/site" "$BENCH_DIR/site-before"
	"$FSM_ROOT/out/fsmatrix" history --db "$db" add "$runs/run-$(printf %04d $((n + 1))).jsonl" >/dev/null 2>&1
	site_cpu added || { unmeasured site_full_s "fsmatrix site failed"; return; }
	added=$best
	local bytes pages
	bytes=$(du -sb "$BENCH_DIR/site" | cut -f1)
	pages=$(sed -n 's/.*: \([0-9]*\) pages\{0,1\} written.*/\1/p' "$BENCH_DIR/site-line")
	figure site_full_s "$(jq -n --argjson v "$full" --arg line "$line" --argjson bytes "$bytes" \
		--argjson cpu "$(stats $site_secs_full)" '{value: $v, runs: 1000, site_bytes: $bytes, cpu_s: $cpu,
		line: $line, mark: "least CPU time of 3 first writes of the site of 1,000 runs"}')"
	figure site_unchanged_s "$(jq -n --argjson v "$same" --argjson cpu "$(stats $site_secs_same)" \
		'{value: $v, cpu_s: $cpu, mark: "least CPU time of 3 writes with nothing new (no page rewritten)"}')"
	figure site_incremental_s "$(jq -n --argjson v "$added" --argjson pages "${pages:-null}" \
		--argjson cpu "$(stats $site_secs_added)" \
		'{value: $v, pages_written: $pages, cpu_s: $cpu, mark: "least CPU time of 3 writes after one run was added"}')"
	show site_full_s "$full (1,000 runs, $((bytes / 1048576)) MiB of pages, least of $site_secs_full s)"
	show site_unchanged_s "$same (nothing rewritten, least of $site_secs_same s)"
	show site_incremental_s "$added ($pages pages rewritten after one run was added, least of $site_secs_added s)"
	cmd "tests/scale/make-history 1001 runs; fsmatrix history add runs/run-0{001..1000}.jsonl; fsmatrix site -o site"
	chrome=$(command -v chromium || true)
	if [ -z "$chrome" ]; then
		unmeasured site_summary_open_s "chromium is not installed"
		return
	fi
	local flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
		--disable-component-update --disable-sync --user-data-dir="$BENCH_DIR/site-chrome") d diffs=() t0 t1 t2
	printf '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>empty</title></head><body></body></html>\n' \
		>"$BENCH_DIR/empty.html"
	for i in 1 2 3; do
		t0=$(date +%s.%N)
		timeout 120 "$chrome" "${flags[@]}" --dump-dom "file://$BENCH_DIR/empty.html" >/dev/null 2>&1
		t1=$(date +%s.%N)
		timeout 120 "$chrome" "${flags[@]}" --dump-dom "file://$BENCH_DIR/site/index.html" >"$BENCH_DIR/site-dom" 2>/dev/null
		t2=$(date +%s.%N)
		grep -q 'rows shown</span>' "$BENCH_DIR/site-dom" || { unmeasured site_summary_open_s "the summary's script did not run"; return; }
		diffs+=("$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.3f", (c - b) - (b - a) }')")
	done
	d=$(stats "${diffs[@]}")
	figure site_summary_open_s "$(jq -n --argjson s "$d" --argjson bytes "$(stat -c %s "$BENCH_DIR/site/index.html")" \
		'{value: $s.median, summary_bytes: $bytes, wall_s: $s,
		  mark: "headless Chromium: the summary loaded and its script run, less an empty page (median of 3)"}')"
	show site_summary_open_s "$(jq -r .median <<<"$d") ($(($(stat -c %s "$BENCH_DIR/site/index.html") / 1024)) KiB summary, over an empty page: ${diffs[*]} s)"
	cmd "chromium --headless --dump-dom file://.../site/index.html"
	rm -rf "$runs" "$BENCH_DIR/site-before" "$BENCH_DIR/site-chrome"
}
