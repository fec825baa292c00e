#!/bin/bash
# tests/site/run.sh: `fsmatrix site` on a history made from the recorded runs of
# tests/fixtures/report/: eighteen runs of cond-a.jsonl where md1/ext4/defaults/seqwrite steps
# 20% down at the seventh and stays (a new regression) and md1/xfs/defaults/seqwrite steps down
# there and back up by 12% at the thirteenth (fixed: 60% won back), three of cond-b.jsonl (the disks' write cache
# off: a conditions change), a real run under two kernels (real-kernels.jsonl), a cell named
# with characters HTML and URLs must escape seen once (one point), and a metric whose values
# were cleared. The site is written, checked by tidy, opened in headless Chromium (the summary,
# a regression's permalink, a series' permalink, a filtered view) with what is on the page
# checked in its DOM and screenshots kept under build/tests/site/; then written again (nothing
# rewritten), a run added (only what it changed rewritten), a change point acknowledged, and
# every bad input refused with one line.
#
#   tests/site/run.sh [FSMATRIX]     (FSMATRIX defaults to out/fsmatrix)
#
# One line per test, "ok - site/NAME" or "FAIL - site/NAME: why" (then "#" lines), as
# tests/run expects. Needs jq, tidy and chromium (the TEST tier's). Exit status 1 on failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
FSM=$(realpath "${1:-out/fsmatrix}")
F=tests/fixtures/report
TMP=$(mktemp -d)
# SITE_KEEP=1 keeps the history and the site for a look, and says where
[ -n "${SITE_KEEP:-}" ] && echo "# kept in $TMP" || trap 'rm -rf "$TMP"' EXIT
SHOTS=$ROOT/build/tests/site
mkdir -p "$SHOTS"
TIER=site
. "$ROOT/tests/tier.sh"
detail() { sed 's/^/#   /' "$@" | head -n 20; }

for tool in jq tidy; do
	command -v $tool >/dev/null || { echo "skip - site/all: $tool is not installed (make deps)"; exit 0; }
done
CHROME=$(command -v chromium || command -v chromium-browser || true)

# mkrun BASE ID DAY RELEASE SCALE [CELLSCALE_JQ [RENAME]]: BASE's records as run ID, DAY days
# after 2026-01-01 12:00, under kernel RELEASE, every mbps times SCALE, and times the value
# CELLSCALE_JQ (a jq object of cell id to factor) gives its cell; RENAME: a jq object of cell
# ids to new ones. Seqwrite cells get a limit of 125 MB/s (and their efficiency against it).
# Prints the file's path.
mkrun() {
	local base=$1 id=$2 day=$3 rel=$4 scale=$5 cs=${6:-'{}'} ren=${7:-'{}'} fp out=$TMP/runs/$2.jsonl
	mkdir -p "$TMP/runs"
	fp=$(printf '%s %s' "$(head -n 1 "$base" | jq -r .conditions.fingerprint)" "$rel" | sha256sum | cut -c1-64)
	jq -c --arg id "$id" --arg rel "$rel" --arg fp "$fp" --argjson t $((1767268800 + day * 86400)) \
		--argjson k "$scale" --argjson cs "$cs" --argjson ren "$ren" '
		if .type == "header" then .run = $id | .time = $t | .kernel.release = $rel
			| .conditions.inputs.kernel.release = $rel | .conditions.fingerprint = $fp
		elif .type == "cell" then .fingerprint = $fp
			| (if .result.mbps then .result.mbps *= $k * ($cs[.cell] // 1) else . end)
			| (if (.cell | endswith("seqwrite")) then .limit = {mbps: 125, direction: "write",
				metric: "mbps", rule: "test: 125 MB/s"} | .efficiency = .result.mbps / 125 else . end)
		else . end
		| (if has("run") then .run = $id else . end)
		| (if (.cell | type) == "string" and $ren[.cell] then .cell = $ren[.cell] else . end)' "$base" >"$out"
	echo "$out"
}

DB=$TMP/h.sqlite
SITE=$TMP/site
STEP=md1/ext4/defaults/seqwrite
FIXED=md1/xfs/defaults/seqwrite
ODD='md1/ext4/a<b>&"c" %2F#?x/smallfiles'
RUNS=()
for i in $(seq 0 17); do
	j=$(awk -v i="$i" 'BEGIN { printf "%.4f", 1 + 0.003 * ((i * 3) % 5 - 2) }')
	s=1 x=1 rel=6.1.0-9-amd64
	[ "$i" -ge 6 ] && s=0.8 && x=0.8 && rel=6.1.0-15-amd64
	[ "$i" -ge 12 ] && x=0.92
	RUNS+=("$(mkrun $F/cond-a.jsonl "202601$(printf %02d $((1 + i)))-120000-s$i" "$i" "$rel" "$j" \
		"{\"$STEP\": $s, \"$FIXED\": $x}")")
done
for i in 0 1 2; do
	RUNS+=("$(mkrun $F/cond-b.jsonl "202602$(printf %02d $((1 + i)))-120000-wc$i" $((40 + i)) 6.1.0-15-amd64 1)")
done
jq -n --arg odd "$ODD" '{"md1/ext4/noatime/smallfiles": $odd}' >"$TMP/ren.json"
RUNS+=("$(mkrun $F/cond-a.jsonl 20260301-120000-odd 59 6.1.0-15-amd64 1 "{\"$STEP\": 0.8, \"$FIXED\": 0.92}" \
	"$(cat "$TMP/ren.json")")")
RUNS+=("$F/real-kernels.jsonl")
if ! "$FSM" history --db "$DB" add "${RUNS[@]}" >"$TMP/add" 2>&1; then
	fail setup "history add failed"
	detail "$TMP/add"
	exit 1
fi
# a metric with no values: md1/xfs/noatime/smallfiles's sync_s cleared in every run
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE figures SET mean = NULL, stddev = NULL WHERE cell = ? AND metric = ?", ("md1/xfs/noatime/smallfiles", "sync_s")); c.commit()' "$DB"

# the site, written
"$FSM" site --db "$DB" -o "$SITE" >"$TMP/site1" 2>"$TMP/site1.err"
rc=$?
nseries=$(find "$SITE/series" -name '*.html' | wc -l)
nrun=$(find "$SITE/run" -name '*.html' | wc -l)
if [ $rc = 0 ] && [ -s "$SITE/index.html" ] && [ -s "$SITE/regressions.html" ] && [ -s "$SITE/feed.atom" ] &&
	[ -s "$SITE/runs.html" ] && [ "$nrun" = 23 ] && [ "$nseries" -ge 30 ] && [ ! -s "$TMP/site1.err" ] &&
	grep -q "^$SITE: $nseries series, .* 23 runs: $((nseries + nrun + 5)) pages written, 0 unchanged" "$TMP/site1"; then
	ok "written: $(cat "$TMP/site1")"
else
	fail written "status $rc, $nseries series pages, $nrun run pages"
	detail "$TMP/site1" "$TMP/site1.err"
fi

# tidy: every kind of page is valid HTML. tidy 5.6 knows no SVG 2 attribute: an <a href> inside
# the charts' SVG (a point linking to its run, valid HTML 5) is its one warning, left out here.
tidy_ok=1
: >"$TMP/tidy"
for page in index.html regressions.html runs.html "series/md1~ext4~defaults~seqwrite~mbps.html" \
	"series/md1~ext4~a_3Cb_3E_26_22c_22_20_252F_23_3Fx~smallfiles~mbps.html" \
	"series/md1~xfs~noatime~smallfiles~sync_5Fs.html" run/20260107-120000-s6.html run/20261203-160600-0fa3c3.html; do
	tidy -q -e "$SITE/$page" 2>&1 | grep -v '^line [0-9]* column [0-9]* - Warning: <a> proprietary attribute "href"$' |
		sed "s|^|$page: |" >>"$TMP/tidy"
	[ -e "$SITE/$page" ] || { echo "$page: missing" >>"$TMP/tidy"; }
done
if [ -s "$TMP/tidy" ]; then
	fail tidy "tidy finds fault with the pages"
	detail "$TMP/tidy"
else
	ok "tidy: the summary, regressions, runs, three series pages (one point, no values) and two run pages"
fi
if python3 -c 'import sys, xml.etree.ElementTree as E
t = E.parse(sys.argv[1]).getroot(); a = "{http://www.w3.org/2005/Atom}"
e = t.findall(a + "entry")
assert t.tag == a + "feed" and len(e) == 1 and t.find(a + "id") is not None and t.find(a + "updated") is not None
assert "md1/ext4/defaults/seqwrite mbps -19.9% at run 20260107-120000-s6" in e[0].find(a + "title").text
assert e[0].find(a + "link").get("href").startswith("regressions.html#cp-")' "$SITE/feed.atom" 2>"$TMP/feed.err"; then
	ok "feed.atom: well-formed Atom, one entry: the new regression"
else
	fail feed "not one entry for the new regression"
	detail "$TMP/feed.err" "$SITE/feed.atom"
fi

# pages in headless Chromium: the DOM after the page's script ran, and a screenshot kept
CHROME_FLAGS=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
	--disable-component-update --disable-sync --user-data-dir="$TMP/chrome")
open_page() { # URL NAME HEIGHT: $TMP/NAME.dom and $SHOTS/NAME.png
	timeout 120 "$CHROME" "${CHROME_FLAGS[@]}" --window-size=1280,"$3" --screenshot="$SHOTS/$2.png" "$1" >"$TMP/$2-shot.log" 2>&1
	timeout 120 "$CHROME" "${CHROME_FLAGS[@]}" --dump-dom "$1" >"$TMP/$2.dom" 2>"$TMP/$2-dom.log"
	grep -Eh 'Uncaught|ERROR:CONSOLE|CONSOLE\(' "$TMP/$2-shot.log" "$TMP/$2-dom.log" >"$TMP/$2.console"
}
shot_ok() { [ "$(stat -c %s "$SHOTS/$1.png" 2>/dev/null || echo 0)" -gt 10000 ] && [ ! -s "$TMP/$1.console" ]; }
U="file://$SITE"
CP=$(grep -o 'id="cp-[^"]*20260107-120000-s6[^"]*"' "$SITE/regressions.html" | grep 'ext4~defaults' | sed 's/id="\(.*\)"/\1/')
if [ -z "$CHROME" ]; then
	echo "skip - site/chromium: chromium is not installed (make deps)"
else
	open_page "$U/index.html" summary 1400
	# the rows, the script's filters shown, the planted step and its share of the limit, the
	# odd name as text, the cell of no values
	if shot_ok summary && [ "$(grep -c '<tr id="' "$TMP/summary.dom")" = 30 ] &&
		grep -q '<div class="filters" id="filters">' "$TMP/summary.dom" &&
		grep -q '<span id="shown">30 of 30 rows shown</span>' "$TMP/summary.dom" &&
		grep -q 'id="md1~ext4~defaults~seqwrite~mbps".*<td class="num" data-v="80">80.00 MB/s</td><td class="num wrap worse" data-v="-19.9[0-9]*">▼ worse -19.9% since 20260107-120000-s6</td><td class="num" data-v="0.6400">64% of 125.0 MB/s</td><td class="wrap" data-v="0">within' "$TMP/summary.dom" &&
		grep -q '>md1/ext4/a&lt;b&gt;&amp;"c" %2F#?x/smallfiles</a>' "$TMP/summary.dom" &&
		grep -q 'id="md1~xfs~noatime~smallfiles~sync_5Fs".*no values' "$TMP/summary.dom" &&
		grep -q '<path class="cp" d="[^"]*"><title>change point: -19.9%</title></path>' "$TMP/summary.dom"; then
		ok "chromium: the summary: 30 rows, filters, the step (▼ worse -19.9%, 64% of the limit), escaped names, no values"
	else
		fail "chromium summary" "not what the page should show"
		detail "$TMP/summary.console"
		grep -o 'id="md1~ext4~defaults~seqwrite~mbps".*' "$TMP/summary.dom" | cut -c1-1500 | detail
	fi
	# a view kept in the address: xfs's seqwrite cells only
	open_page "$U/index.html#fs=xfs&workload=seqwrite" filtered 900
	if shot_ok filtered && grep -q '<span id="shown">4 of 30 rows shown</span>' "$TMP/filtered.dom" &&
		grep -q '<tr id="md1~ext4~defaults~seqwrite~mbps"[^>]* hidden=""' "$TMP/filtered.dom" &&
		! grep -q '<tr id="md1~xfs~defaults~seqwrite~mbps"[^>]* hidden' "$TMP/filtered.dom"; then
		ok "chromium: a filtered view's link (#fs=xfs&workload=seqwrite) shows its 4 rows"
	else
		fail "chromium filtered" "the link's view is not 4 rows"
		grep -o '<span id="shown">[^<]*' "$TMP/filtered.dom" | detail
	fi
	# a regression's permalink
	open_page "$U/regressions.html#$CP" regression 700
	if shot_ok regression && [ -n "$CP" ] &&
		grep -q "<tr id=\"$CP\"><td class=\"new wrap\">NEW</td><td>2026-01-07 12:00</td>.*99.90 → 80.00 MB/s</td><td class=\"num worse\">▼ worse -19.9%</td>" "$TMP/regression.dom" &&
		grep -q '<td class="wrap">fixed at run 20260113-120000-s12 (+14.9%)</td>' "$TMP/regression.dom" &&
		grep -q '<td class="new wrap">NEW (fixes the one at run 20260107-120000-s6)</td>' "$TMP/regression.dom" &&
		[ "$(grep -c '<tr id="cp-' "$TMP/regression.dom")" = 3 ]; then
		ok "chromium: a regression's permalink: the step new, the xfs dip fixed, 3 change points"
	else
		fail "chromium regression" "not the change points expected (anchor $CP)"
		grep -o '<tr id="cp-.*' "$TMP/regression.dom" | cut -c1-600 | detail
	fi
	# a series' page: the chart of history show --html, each point a link to its run's page
	open_page "$U/series/md1~ext4~defaults~seqwrite~mbps.html" series 1000
	nlink=$(grep -o '<a href="../run/[^"]*\.html"><line' "$TMP/series.dom" | wc -l)
	if shot_ok series && [ "$nlink" = 22 ] && grep -q 'class="cplabel">-19.9% p' "$TMP/series.dom" &&
		grep -q "<a href=\"../regressions.html#$CP\">▼ worse -19.9% at run 20260107-120000-s6</a>: new" "$TMP/series.dom" &&
		[ -s "$SITE/run/20260107-120000-s6.html" ]; then
		ok "chromium: a series' page: 22 points linking to their runs, the change point, its triage"
	else
		fail "chromium series" "$nlink point links"
	fi
	# a run's page: fsmatrix html's report of it
	open_page "$U/run/20261203-160600-0fa3c3.html" run 1000
	if shot_ok run && grep -q '<h1>fsmatrix report</h1>' "$TMP/run.dom" && grep -q '<a href="../index.html">summary</a>' "$TMP/run.dom" &&
		grep -q 'disk/ext4/defaults/seq' "$TMP/run.dom"; then
		ok "chromium: a run's page (a run under two kernels): fsmatrix html's report"
	else
		fail "chromium run" "not the run's report"
	fi
fi

# the same site from a static web server (Python's, on a port of its choosing): the summary's
# script runs, and a series' page and its run's page are served under their names
if [ -n "$CHROME" ]; then
	python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$SITE" >"$TMP/httpd.log" 2>&1 &
	httpd=$!
	port=
	for _ in $(seq 1 50); do
		port=$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' "$TMP/httpd.log")
		[ -n "$port" ] && break
		sleep 0.1
	done
	if [ -n "$port" ]; then
		open_page "http://127.0.0.1:$port/index.html#workload=smallfiles" served 900
		timeout 120 "$CHROME" "${CHROME_FLAGS[@]}" --dump-dom "http://127.0.0.1:$port/series/md1~ext4~a_3Cb_3E_26_22c_22_20_252F_23_3Fx~smallfiles~mbps.html" >"$TMP/served-odd.dom" 2>/dev/null
	fi
	kill "$httpd" 2>/dev/null
	wait "$httpd" 2>/dev/null
	if [ -n "$port" ] && shot_ok served && grep -q '<span id="shown">20 of 30 rows shown</span>' "$TMP/served.dom" &&
		grep -q '<h1>md1/ext4/a&lt;b&gt;&amp;"c" %2F#?x/smallfiles mbps</h1>' "$TMP/served-odd.dom" &&
		grep -q 'href="../run/20260301-120000-odd.html"' "$TMP/served-odd.dom" &&
		grep -q '"GET /run/\|"GET /series/md1~ext4~a_3Cb' "$TMP/httpd.log"; then
		ok "served by a static server: the summary's filter (20 rows), the escaped cell's page by its name"
	else
		fail "static server" "port ${port:-none}"
		detail "$TMP/httpd.log"
	fi
fi

# by kernel version: the sparklines and change points in release order
"$FSM" site --db "$DB" -o "$TMP/site-k" --by kernel >"$TMP/sitek" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q 'each run.s mean by kernel version' "$TMP/site-k/index.html" &&
	grep -q 'run, by kernel version' "$TMP/site-k/series/md1~ext4~defaults~seqwrite~mbps.html" &&
	grep -q '<tr id="cp-md1~ext4~defaults~seqwrite~mbps~20260107-120000-s6_40"><td class="new wrap">NEW</td>' "$TMP/site-k/regressions.html"; then
	ok "--by kernel: the series in release order, the step at the first 6.1.0-15 run"
else
	fail "--by kernel" "status $rc"
	detail "$TMP/sitek"
fi

# written again: nothing changed, nothing rewritten
pages_stat() { (cd "$SITE" && find . -type f -name '*.html' -printf '%p %i %T@\n' | sort); }
pages_stat >"$TMP/stat1"
"$FSM" site --db "$DB" -o "$SITE" >"$TMP/site2" 2>&1
pages_stat >"$TMP/stat2"
if grep -q ": 0 pages written, $((nseries + nrun + 5)) unchanged" "$TMP/site2" && cmp -s "$TMP/stat1" "$TMP/stat2"; then
	ok "written again: 0 pages written, every file as it was"
else
	fail "written again" "pages rewritten"
	detail "$TMP/site2"
fi
# a run added: its page, its cells' series pages and the lists rewritten; no other run's page
NEW=$(mkrun $F/cond-a.jsonl 20260119-120000-s18 18 6.1.0-15-amd64 1 "{\"$STEP\": 0.8, \"$FIXED\": 0.92}")
"$FSM" history --db "$DB" add "$NEW" >/dev/null 2>&1
"$FSM" site --db "$DB" -o "$SITE" >"$TMP/site3" 2>&1
pages_stat >"$TMP/stat3"
changed=$(join -a 2 "$TMP/stat2" "$TMP/stat3" | awk '$2 != $4 || $3 != $5 || NF < 5 { print $1 }' | sort)
runs_changed=$(echo "$changed" | grep -c '^./run/')
if [ "$runs_changed" = 1 ] && echo "$changed" | grep -qx './run/20260119-120000-s18.html' &&
	echo "$changed" | grep -qx './index.html' && echo "$changed" | grep -qx './runs.html' &&
	! echo "$changed" | grep -q 'disk~ext4' && [ "$(echo "$changed" | grep -c '^./series/')" -le 24 ]; then
	ok "a run added: $(echo "$changed" | wc -l) pages rewritten (its own, $(echo "$changed" | grep -c '^./series/') series of its cells, the lists); no other run's page"
else
	fail "a run added" "these changed: $(echo "$changed" | tr '\n' ' ')"
	detail "$TMP/site3"
fi
# a run's source edited: its page remade; a source gone: its page from the history's figures
sed -i 's/QEMU Virtual CPU version 2.5+/QEMU Virtual CPU version 2.5+ (edited)/' "$TMP/runs/20260201-120000-wc0.jsonl"
rm "$TMP/runs/20260104-120000-s3.jsonl"
"$FSM" site --db "$DB" -o "$SITE" >"$TMP/site4" 2>"$TMP/site4.err"
rc=$?
pages_stat >"$TMP/stat4"
changed=$(join "$TMP/stat3" "$TMP/stat4" | awk '$2 != $4 || $3 != $5 { print $1 }' | sort | tr '\n' ' ')
if [ $rc = 0 ] && [ "$changed" = "./run/20260104-120000-s3.html ./run/20260201-120000-wc0.html " ] &&
	[ "$(wc -l <"$TMP/site4.err")" = 1 ] && grep -q '^fsmatrix site: .*/20260104-120000-s3.jsonl: No such file or directory: the page of its run shows the history.s figures$' "$TMP/site4.err" &&
	grep -q 'cannot be read now: the figures the history kept' "$SITE/run/20260104-120000-s3.html" &&
	grep -q '<td>md1/ext4/defaults/seqwrite</td><td></td><td>mbps</td><td class="num">3</td>' "$SITE/run/20260104-120000-s3.html"; then
	ok "a source touched: its run page remade; a source gone: one line, its page from the history's figures"
else
	fail "sources" "status $rc, changed: $changed"
	detail "$TMP/site4.err"
fi

# acknowledged: the step's state kept in the history, the feed empties
"$FSM" history --db "$DB" ack "$STEP" mbps 20260107-120000-s6 'known: 6.1.0-15 writeback change, bug 123 <x>' >"$TMP/ack" 2>&1
rc=$?
"$FSM" site --db "$DB" -o "$SITE" >/dev/null 2>&1
if [ $rc = 0 ] && grep -q "^$STEP mbps at run 20260107-120000-s6: acknowledged: known" "$TMP/ack" &&
	grep -q "<tr id=\"$CP\"><td class=\"wrap\">acknowledged: known: 6.1.0-15 writeback change, bug 123 &lt;x&gt; (20" "$SITE/regressions.html" &&
	! grep -q '<entry>' "$SITE/feed.atom" && grep -q '>0 new regressions</a>' "$SITE/index.html"; then
	ok "history ack: the step acknowledged with its note (escaped), the feed empty"
else
	fail "ack" "status $rc"
	detail "$TMP/ack"
fi
if [ -n "$CHROME" ]; then
	open_page "$U/regressions.html#$CP" regression-ack 700
	if shot_ok regression-ack && grep -q "<tr id=\"$CP\"><td class=\"wrap\">acknowledged: known: 6.1.0-15 writeback change, bug 123 &lt;x&gt;" "$TMP/regression-ack.dom"; then
		ok "chromium: the acknowledged regression's permalink"
	else
		fail "chromium regression-ack" "the state is not shown"
	fi
fi

# refused ARGS...: status WANT, one line on stderr, nothing made at -o
refused() {
	local want=$1 name=$2 out=$3
	shift 3
	local rc
	"$FSM" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = "$want" ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" = 1 ] && { [ -z "$out" ] || [ ! -e "$out" ]; }; then
		ok "$name: $(cat "$TMP/err")"
	else
		fail "$name" "status $rc (want $want), $(wc -c <"$TMP/out") bytes out, $(wc -l <"$TMP/err") lines err"
		detail "$TMP/err" "$TMP/out"
	fi
}
cp "$DB" "$TMP/newer.db"
# a schema past this fsmatrix's (2): user_version, bytes 60-63 of the header, 3
printf '\000\000\000\003' | dd of="$TMP/newer.db" bs=1 seek=60 conv=notrunc status=none
refused 1 "a history from a newer fsmatrix" "$TMP/s-newer" site --db "$TMP/newer.db" -o "$TMP/s-newer"
refused 1 "no history there" "$TMP/s-none" site --db "$TMP/none.db" -o "$TMP/s-none"
printf 'not a database, but text long enough to look like a header of one...\n%.0s' {1..20} >"$TMP/text.db"
refused 1 "not a database" "$TMP/s-text" site --db "$TMP/text.db" -o "$TMP/s-text"
# a database whose pages are damaged past its header
cp "$DB" "$TMP/broken.db"
head -c 65536 /dev/urandom | dd of="$TMP/broken.db" bs=1 seek=8192 conv=notrunc status=none
refused 1 "a damaged database" "$TMP/s-broken" site --db "$TMP/broken.db" -o "$TMP/s-broken"
mkdir -p "$TMP/notes" && echo keep >"$TMP/notes/mine.txt"
refused 2 "a folder that is not a site" "" site --db "$DB" -o "$TMP/notes"
[ "$(ls "$TMP/notes")" = mine.txt ] || fail "a folder that is not a site" "files were written into it"
refused 2 "a file as the folder" "" site --db "$DB" -o "$TMP/notes/mine.txt"
refused 2 "no folder" "" site --db "$DB"
refused 2 "--window 1" "$TMP/s-w" site --db "$DB" -o "$TMP/s-w" --window 1
refused 2 "--by without its value" "$TMP/s-w" site --db "$DB" -o "$TMP/s-w" --by
refused 1 "ack: a run without that cell" "" history --db "$DB" ack "$STEP" mbps 20261203-160600-0fa3c3 note
refused 1 "ack: a cell under two kernel sets, no set named" "" history --db "$DB" ack disk/ext4/defaults/seq mbps 20261203-160600-0fa3c3 note
refused 2 "ack: an empty note" "" history --db "$DB" ack "$STEP" mbps 20260107-120000-s6 ''
refused 1 "ack: no history there" "$TMP/none.db" history --db "$TMP/none.db" ack "$STEP" mbps 20260107-120000-s6 note
exit $failed
