#!/bin/bash
# tests/report/run.sh: golden-file tests of `fsmatrix report`, `compare` and `html` on the
# recorded runs in tests/fixtures/report/ (written by tests/fixtures/make-report-fixtures).
#
#   tests/report/run.sh [--update] [FSMATRIX]     (FSMATRIX defaults to out/fsmatrix)
#
# One line per test, "ok - report/NAME" or "FAIL - report/NAME: why" followed by the diff as
# "#" lines, as tests/run expects. --update rewrites the expected files from the current
# output instead (review the diff with git before committing). Runs from the repository root,
# so that the sources named in the outputs read the same everywhere. Exit status 1 on failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
update=0
[ "${1:-}" != --update ] || { update=1; shift; }
FSM=${1:-out/fsmatrix}
F=tests/fixtures/report
E=tests/report/expected
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

TIER=report
. "$ROOT/tests/tier.sh"

# golden NAME EXPECTED STATUS ARGS...: fsmatrix ARGS must exit with STATUS (0 a complete run
# with every cell ok, 3 incomplete, 4 a cell not ok: docs/host-cli.md) and print exactly
# EXPECTED's contents.
golden() {
	local name=$1 want=$E/$2 status=$3 rc
	shift 3
	"$FSM" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" != "$status" ]; then
		fail "$name" "fsmatrix $* exited with status $rc, want $status"
		sed 's/^/#   /' "$TMP/err" | head -n 10
		return
	fi
	if [ "$update" = 1 ]; then
		cp "$TMP/out" "$want"
		ok "$name (updated $want)"
	elif [ ! -f "$want" ]; then
		fail "$name" "$want is missing (tests/report/run.sh --update writes it)"
	elif diff -u "$want" "$TMP/out" >"$TMP/diff"; then
		ok "$name"
	else
		fail "$name" "output differs from $want"
		sed 's/^/#   /' "$TMP/diff" | head -n 40
	fi
}

# reported ARGS...: fsmatrix ARGS wrote its output: status 0, or 3 or 4 (what the run is)
reported() {
	timeout 60 "$FSM" "$@"
	local rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || [ "$rc" = 4 ]
}

# The table of cases: name, expected file, exit status, arguments.
golden text-run-a        run-a.txt             4 report "$F/run-a.jsonl"
golden md-run-a          run-a.md              4 report --format md "$F/run-a.jsonl"
golden csv-run-a         run-a.csv             4 report --format csv "$F/run-a.jsonl"
golden json-partial      partial.json          3 report --format json "$F/partial.jsonl"
golden text-partial      partial.txt           3 report "$F/partial.jsonl"
golden text-planned      partial-planned.txt   3 report "$F/partial-planned.jsonl"
golden text-console      console-garbled.txt   3 report "$F/console-garbled.log"
golden text-truncated    truncated.txt         3 report "$F/truncated.jsonl"
golden text-unusable     unusable.txt          4 report "$F/unusable.jsonl"
golden text-ignored      ignored.txt           0 report "$F/ignored.jsonl"
golden compare-ignored   compare-ignored.txt   0 compare "$F/ignored-old.jsonl" "$F/ignored.jsonl"
# Disks of known speed (rootfs/plans/calibration.ini at 8 MB/s a disk, 2026-12-04; series and
# long fields dropped): Findings open the report with each cell's limit and bottleneck; a
# compare explains the one significant difference by what differs in them (A wrote a file of
# 341 and a third stripes and read back 20% of it, B whole stripes at its limit)...
golden limits-report     limits-report.txt     0 report "$F/limits-a.jsonl"
golden limits-compare    limits-compare.txt    0 compare --across-workloads --across-definitions "$F/limits-a.jsonl" "$F/limits-b.jsonl"
# ... whose writers' files differ (64m in A, 48m in B: the point of that pair), and whose plans
# differ (their records give no mkfs options: nothing else tells their cells' definitions
# apart), which compare says, and tests nothing, without --across-workloads and
# --across-definitions
golden limits-compare-workloads limits-compare-workloads.txt 0 compare "$F/limits-a.jsonl" "$F/limits-b.jsonl"
# A warm-up record (shaped as a cell record, before the first cell) is listed and is in no
# figure: run-a with one whose figures are far off reports, sorts and compares as run-a does,
# with one more header line.
mkdir -p "$TMP/warm"
jq -c 'if .type == "cell" and .index == 1 and .rep == 1 then
	(. | .type = "warmup" | .warmup = 1 | .warmups = 1 | .figure = {metric: "mbps", value: 1.5, unit: "MB/s"} |
	 .result = (.result | with_entries(if (.value | type) == "number" then .value = 1.5 else . end))), .
	else . end' "$F/run-a.jsonl" >"$TMP/warm/run-a.jsonl"
warm_same() { # NAME ARGS...: fsmatrix ARGS on run-a and on run-a with a warm-up, sources named alike
	local name=$1 extra
	shift
	"$FSM" "$@" "$F/run-a.jsonl" 2>&1 | sed "s|$F/||g; s|$TMP/warm/||g" >"$TMP/plain"
	"$FSM" "$@" "$TMP/warm/run-a.jsonl" 2>&1 | sed "s|$F/||g; s|$TMP/warm/||g" >"$TMP/warmed"
	extra=$(diff "$TMP/plain" "$TMP/warmed" | grep '^[<>]')
	if [ "$(grep -c '"type":"warmup"' "$TMP/warm/run-a.jsonl")" != 1 ]; then
		fail "$name" "the fixture with a warm-up was not made"
	elif [ -z "$extra" ] && [ "$name" != warmup-report ] || [ "$extra" = "> ${WANT_EXTRA:-}" ]; then
		ok "$name"
	else
		fail "$name" "differs beyond the warm-up line"
		printf '%s\n' "$extra" | head -n 10 | sed 's/^/#   /'
	fi
}
WANT_EXTRA="  warm-up   1 before a boot's first cell, in no figure: md1/ext4/defaults/seqwrite ok 1.5 MB/s" \
	warm_same warmup-report report
warm_same warmup-report-csv report --format csv
warm_same warmup-report-json report --format json
warm_same warmup-compare compare "$F/run-b.jsonl"
golden text-series       series.txt            4 report "$F/series.jsonl"
# A real run of boot test 37 (tests/plans/tunables.ini): the stripe cache the plan varies is
# the table's axis, the tunables it fixes are in the note, and those the kernel did not take
# are Problems.
golden text-tunables     tunables.txt          0 report "$F/real-tunables.jsonl"
golden csv-tunables      tunables.csv          0 report --format csv "$F/real-tunables.jsonl"
# Its header and plan event as a dry run's, listing cells by id only: the tunables come back
# out of the ids, a scheduler's dashed value and an array without a chunk included.
golden csv-tunables-dry  tunables-dry.csv      3 report --format csv "$F/real-tunables-dry.jsonl"
# A real run of boot test 48 (tests/plans/kernels.ini: one cell under 6.1 and 6.12 by kexec,
# a power cut after the first switch): each kernel a row of its own, never one merged cell;
# compare --by kernel puts the cell under 6.1 against itself under 6.12; a run of one
# kernel is refused with one line.
golden text-kernels      kernels.txt           0 report "$F/real-kernels.jsonl"
# A real run of boot test 54 (tests/plans/bisect.ini, its series records left out): the
# bisection opens the report, its probes in the search's order with their figures and rules;
# the positions the search did not ask for are not missing (status 0), and markdown gives it
# a heading of its own.
# (its cells ran with disk_speed = off: no limit, and the limits table still gives each its
# MB/s)
golden text-bisect       bisect.txt            0 report "$F/real-bisect.jsonl"
golden md-bisect         bisect.md             0 report --format md "$F/real-bisect.jsonl"
golden csv-kernels       kernels.csv           0 report --format csv "$F/real-kernels.jsonl"
golden compare-bykernel  compare-bykernel.txt  0 compare --by kernel "$F/real-kernels.jsonl"
golden compare-bykernel-one compare-bykernel-one.txt 1 compare --by kernel "$F/run-a.jsonl"
# Each side has its own kernel's first header: a condition the boots of one kernel had and
# the other's not (thp, edited into the 6.12 boots' header) is said, and nothing is tested;
# the kernel's own differences (release, image, its share of memory) are not.
mkdir -p build/tests
jq -c 'if .type == "header" and .kernel.set == "6.12" then .conditions.inputs.controls.thp = "never" else . end' \
	"$F/real-kernels.jsonl" >build/tests/report-kernels-thp.jsonl
golden compare-bykernel-thp compare-bykernel-thp.txt 0 compare --by kernel build/tests/report-kernels-thp.jsonl
# The same journal cut at its first kernel switch: what never ran is counted by cell under
# each kernel (6.1's cell 1, 6.12's cell 2), not as more repetitions of one cell.
sed "/\"event\":\"kernel-switch\"/q" "$F/real-kernels.jsonl" >build/tests/report-kernels-cut.jsonl
golden text-kernels-cut  kernels-cut.txt       3 report build/tests/report-kernels-cut.jsonl
# A real run of boot test 38 on NVMe: the controller's critical warning raised through QMP
# while cell 1 wrote, so cell 1 warns of it and Problems lists it once, with its repeat.
golden text-nvme         nvme.txt              0 report "$F/real-nvme.jsonl"
# The same records with the rise moved where no cell was measuring: cell 1 ends at 0x00 (its
# warning gone), cell 2 starts at 0x04; and media errors found by the boot's last reading,
# after the last cell. Problems lists both, each saying between which readings.
jq -c 'if .type == "cell" and .index == 1 then .devices[0].after.critical_warning = 0 |
		.warnings = [.warnings[] | select(startswith("device:") | not)]
	elif .type == "event" and .event == "devices" then .disks[0].health = {"temperature_c": 50,
		"temperature_warn_c": 70, "critical_warning": 4, "media_errors": 3,
		"error_log_entries": 0, "thermal_throttle_s": 0}
	else . end' "$F/real-nvme.jsonl" >build/tests/report-nvme-gap.jsonl
golden text-nvme-gap     nvme-gap.txt          0 report build/tests/report-nvme-gap.jsonl
golden md-series         series.md             4 report --format md "$F/series.jsonl"
golden json-series       series.json           4 report --format json "$F/series.jsonl"
# series records past their limits or out of shape (a short row, time going back, 1e308, a
# string, 600 rows): each left out and named under Problems, no figure of hundreds of digits
golden text-series-bad   series-bad.txt        4 report "$F/series-bad.jsonl"
if reported html "$F/series-bad.jsonl" -o "$TMP/series-bad.html" 2>"$TMP/err" &&
	! grep -qE "[0-9]{20,}" "$TMP/series-bad.html"; then
	ok html-series-bad
else
	fail html-series-bad "html failed, or printed a figure of 20 digits or more"
fi
# LAVA: real lava-run logs (tests/boot/24-lava.sh: the default plan at scale 0.05 as two
# shards side by side, and whole), kept xz'd in tests/fixtures/lava/ and unpacked where the
# sources the outputs name read the same everywhere.
L=build/tests/report-lava
mkdir -p "$L"
for f in shard1 shard2 whole; do xz -dc "tests/fixtures/lava/$f.log.xz" >"$L/$f.log"; done
golden lava-merged       lava-merged.txt       0 report "$L/shard1.log" "$L/shard2.log"
golden lava-merged-json  lava-merged.json      0 report --format json "$L/shard2.log" "$L/shard1.log"
golden lava-alone        lava-alone.txt        3 report "$L/shard2.log"
golden lava-twice        lava-twice.txt        0 report "$L/shard1.log" "$L/shard2.log" "$L/shard1.log"
golden lava-compare      lava-compare.txt      0 compare "$L/whole.log" "$L/shard1.log" "$L/shard2.log"
# a whole run (fsmatrix lava --shards 1: no shard) beside the merged shards: two runs
golden lava-whole-beside lava-whole-beside.txt 0 report --format csv "$L/whole.log" "$L/shard2.log" "$L/shard1.log"
# every record of a real log decodes and passes its CRC
if out=$(build/unit/test_lavalog "$L/shard1.log" 68 2>&1); then ok lava-log-crc; else
	fail lava-log-crc "$(printf '%s\n' "$out" | head -n 1)"; fi
# shards of two runs (another scale) are refused with one line, and nothing is reported
"$FSM" report "$L/shard1.log" tests/fixtures/lava/other-run.jsonl >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" = 1 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
	grep -q '^fsmatrix: unable to merge the shards of .*scale 0.0500.*scale 0.1000' "$TMP/err"; then
	ok lava-two-runs-refused
else
	fail lava-two-runs-refused "status $rc, stderr: $(head -c 300 "$TMP/err")"
fi
# A results directory of one machine (issue 41): shard 1/2 stopped part way, then run again
# whole after a boot given another fsmatrix.shard= had abandoned it. The shard's finished run
# is used, and a line each says which run was used and which left out, and why.
D=build/tests/report-shard-dir
rm -rf "$D" && mkdir -p "$D"
sh='.shard = {k: 1, n: 2, per_rep: 8, cells: [1,2,3,4,5,6,7,8]} | .run_group = "5e1f0c2a9b7d4e6f"'
jq -c "if .type == \"header\" then $sh else . end | if .run then .run = \"20260101-110000-x1x1x1\" else . end" \
	"$F/run-a.jsonl" | head -n 12 >"$D/20260101-110000-x1x1x1.jsonl"
jq -c "if .type == \"header\" then $sh else . end" "$F/run-a.jsonl" >"$D/20260101-120000-a1a1a1.jsonl"
golden shard-dir         shard-dir.txt         3 report "$D"
# ... and runs that no run group joins are each reported, and said to be on stderr
mkdir -p "$D-two"
cp "$F/run-a.jsonl" "$D-two/20260101-120000-a1a1a1.jsonl"
cp "$F/run-b.jsonl" "$D-two/20260102-120000-b2b2b2.jsonl"
"$FSM" report "$D-two" >"$TMP/out" 2>"$TMP/err"
if [ "$(grep -c '^Run ' "$TMP/out")" = 2 ] && grep -q '^fsmatrix: the sources hold 2 runs that are not shards of one run group' "$TMP/err" &&
	[ "$(grep -c '^fsmatrix:   run 2026010[12]-120000-.*: complete$' "$TMP/err")" = 2 ]; then
	ok several-runs-said
else
	fail several-runs-said "stderr: $(head -c 300 "$TMP/err")"
fi
golden by          run-b-by.txt          4 report --by mount,fs "$F/run-b.jsonl"
golden by-where          run-b-by-where.txt    4 report --by mount,fs --where fs=ext4 "$F/run-b.jsonl"
golden real-run-dir      real-smoke.txt        0 report "$F/real-smoke"
golden real-secure-boot  real-secboot.txt      0 report "$F/real-secboot.jsonl"
golden compare-differs   compare-a-b.txt       4 compare "$F/run-a.jsonl" "$F/run-b.jsonl"
golden compare-same      compare-a-c.txt       4 compare "$F/run-a.jsonl" "$F/run-c.jsonl"
golden compare-single    compare-single.txt    0 compare "$F/single-1.jsonl" "$F/single-2.jsonl"
golden compare-md        compare-a-b.md        4 compare --format md "$F/run-a.jsonl" "$F/run-b.jsonl"

# Trust (issue 32): a verdict on every figure. In trust-b, ext4/noatime/seqwrite has one
# repeat at 0.6x the others, xfs/defaults/seqwrite spreads (RSD 7.5%) and
# ext4/noatime/smallfiles lost a repeat; trust-a is all stable.
# has NAME REGEX ARGS...: fsmatrix ARGS prints a line matching REGEX (grep -E).
has() {
	local name=$1 re=$2
	shift 2
	"$FSM" "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	# 3 and 4 say what the run is (incomplete, a cell not ok); the goldens assert which
	if [ "$rc" != 0 ] && [ "$rc" != 3 ] && [ "$rc" != 4 ]; then
		fail "$name" "fsmatrix $* exited with status $rc"
		sed 's/^/#   /' "$TMP/err" | head -n 5
	elif grep -Eq -- "$re" "$TMP/out"; then
		ok "$name"
	else
		fail "$name" "no line matches /$re/ in the output of fsmatrix $*"
	fi
}
TA=$F/trust-a.jsonl TB=$F/trust-b.jsonl
# errline NAME REGEX STATUS ARGS...: fsmatrix ARGS exits with STATUS and its stderr has a line
# matching REGEX
errline() {
	local name=$1 re=$2 status=$3
	shift 3
	"$FSM" "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" != "$status" ]; then
		fail "$name" "fsmatrix $* exited with status $rc, want $status"
	elif grep -Eq -- "$re" "$TMP/err"; then
		ok "$name"
	else
		fail "$name" "no line matches /$re/ on the stderr of fsmatrix $*"
		sed 's/^/#   /' "$TMP/err" | head -n 5
	fi
}
has verdict-mark        '^  ext4  +[0-9.]+ ±[0-9.]+  +[0-9.]+ ±[0-9.]+ ~$' report "$TB"
has verdict-legend      '^  ~: not stable over its repeats' report "$TB"
has verdict-count       '^  5 of 8 cells stable' report "$TB"
has verdict-outlier     '^  md1/ext4/noatime/seqwrite: MB/s: an outlier: repeat 1 at 0\.60x the median' report "$TB"
has verdict-spread      '^  md1/xfs/defaults/seqwrite: MB/s: spread: RSD 7\.5%' report "$TB"
has verdict-too-few     '^  md1/ext4/noatime/smallfiles: .*too few repeats: 2 of 3' report "$TB"
has verdict-all-stable  '^  all 8 cells stable' report "$TA"
has verdict-md          '^- md1/ext4/noatime/seqwrite: MB/s: an outlier: repeat 1 at 0\.60x the median' report --format md "$TB"
if reported report --format json "$TB" >"$TMP/trust.json" 2>"$TMP/err" &&
	jq -e '.runs[0].cells[] | select(.cell == "md1/ext4/noatime/seqwrite") |
		.verdict == {"metric": "mbps", "stable": false, "n": 3, "rsd_pct": 26.76, "range_pct": 40.49,
			     "reason": "an outlier: repeat 1 at 0.60x the median"} and
		.metrics.total_s.verdict.stable == false' "$TMP/trust.json" >/dev/null; then
	ok verdict-json
else
	fail verdict-json "no verdict, or another, on md1/ext4/noatime/seqwrite in report --format json"
fi
# compare tests a difference only between stable sides of 3 or more repeats, says which side
# and why when it does not, and gives the effect with a confidence interval
has compare-refuses-outlier '^  ext4 +noatime +MB/s .*not tested: B: an outlier: repeat 1 at 0\.60x the median$' compare "$TA" "$TB"
has compare-refuses-spread  '^  xfs +defaults +MB/s .*not tested: B: spread: RSD 7\.5%$' compare "$TA" "$TB"
has compare-refuses-too-few '^  ext4 +noatime +time .*not tested: B: too few repeats: 2 of 3$' compare "$TA" "$TB"
has compare-refuses-both    '^  ext4 +defaults +MB/s .*not tested: A: too few repeats: 1 of 3; B: too few repeats: 1 of 3$' compare "$F/single-1.jsonl" "$F/single-2.jsonl"
has compare-ci              '^  ext4 +defaults +MB/s .* \+7\.7% to \+12\.3% .*faster$' compare "$TA" "$TB"
has compare-ci-legend       "95% CI: .*Welch's t with Welch-Satterthwaite degrees of freedom" compare "$TA" "$TB"
# ... and corrects for its many tests (Holm-Bonferroni): p 0.03 alone is not significant
# among 16 tests, and the headline says how many false positives 0.05 would bring without it
has compare-holm            '^  ext4 +defaults +time .* 0\.0316 .*no significant difference$' compare "$TA" "$TB"
has compare-holm-legend     '^  p \(Holm\): .*Holm-Bonferroni over the 16 tests' compare "$TA" "$TB"
has compare-false-positives '^tests: 16 .*Holm-Bonferroni.* 0\.80 false positives' compare "$TA" "$TB"
# ... and says, for each tested row, the smallest change it could have seen (80% power at
# Holm's strictest level): +1.4% on xfs/noatime is below the 6.3% three repeats could show
has compare-mde             '^  xfs +noatime +MB/s .* 6\.3% +no significant difference$' compare "$TA" "$TB"
# arrays that differ in what the cell id does not say: md's bitmap, the discard before the workload
jq -c 'if .type == "cell" then .bitmap = "none" | .discarded = false else . end' "$TA" >"$TMP/bitmap-a.jsonl"
jq -c 'if .type == "cell" and (.cell | startswith("md1/ext4/noatime/")) then .bitmap = "internal" | .discarded = true
	elif .type == "cell" then .bitmap = "none" | .discarded = false else . end' "$TB" >"$TMP/bitmap-b.jsonl"
has compare-bitmap '^note: md1/ext4/noatime/seqwrite: md.s write-intent bitmap none in A, internal in B .*; the blocks discarded before the workload in B only$' \
	compare "$TMP/bitmap-a.jsonl" "$TMP/bitmap-b.jsonl"
has compare-mde-legend      "^  MDE: .*80% power.*t_\{1-a/2,df\} \+ t_\{0\.8,df\}" compare "$TA" "$TB"
# Findings set the best cell of each array and workload against its worst (Welch, Holm over
# the pairs): significant, not tested for a side's spread, and a time called quicker
has findings-contrast-faster '^  on md1 \(seqwrite\): xfs/noatime faster than ext4/defaults: MB/s 141\.0 vs 100\.0 \(41%; Welch p < 0\.0001 after Holm over 1 pair\)$' report "$F/run-a.jsonl"
has findings-contrast-untested '^  on md1 \(seqwrite\): xfs/noatime vs ext4/noatime: MB/s 143\.0 vs 102\.0 \(40%; not tested: ext4/noatime not stable over its repeats\)$' report "$TB"
has findings-contrast-quicker '^  on md1 \(smallfiles\): ext4/nobh quicker than xfs/defaults: time 3\.00 vs 4\.40 \(32%; Welch p 0\.0009, 0\.0009 after Holm over 2 pairs\)$' report "$F/ignored.jsonl"
# between boots: three boots a side of one plan whose repeats agree within 0.3% while the boots
# differ by a few %. One boot a side calls the 2% between two boots a change; the runs' means
# call nothing in the A/A pair and find the real +20% (docs/reports.md, "Between boots")
BA="$F/boots-a1.jsonl $F/boots-a2.jsonl $F/boots-a3.jsonl"
has compare-one-boot-false '^metrics: 0 faster, 20 slower,' compare "$F/boots-a1.jsonl" "$F/boots-b1.jsonl"
has compare-one-boot-spread '^spread: the repeats within one boot a side' compare "$F/boots-a1.jsonl" "$F/boots-b1.jsonl"
# shellcheck disable=SC2086
golden compare-boots-aa compare-boots-aa.txt 0 compare $BA --vs "$F/boots-b1.jsonl" "$F/boots-b2.jsonl" "$F/boots-b3.jsonl"
# shellcheck disable=SC2086
has compare-boots-change '^  ext4 +defaults +MB/s .* \+21\.2% .*faster$' compare $BA --vs "$F/boots-c1.jsonl" "$F/boots-c2.jsonl" "$F/boots-c3.jsonl"
# shellcheck disable=SC2086
has compare-boots-too-few '^  ext4 +defaults +MB/s .*not tested: B: too few runs with figures: 1 of 2$' compare $BA --vs "$F/boots-b1.jsonl"
jq -c 'if .type == "header" then .plan.sha256 = "0123456789ab" + .plan.sha256[12:] else . end' "$F/boots-b2.jsonl" >"$TMP/boots-other-plan.jsonl"
errline compare-boots-other-plan '^fsmatrix: compare: B: runs 20260123-120000-bb0001 and 20260124-120000-bb0002 are of different plans \(sha256 9a8b7c6d5e4f and 0123456789ab\): the runs of a side must be boots of one plan$' \
	1 compare "$F/boots-a1.jsonl" "$F/boots-a2.jsonl" --vs "$F/boots-b1.jsonl" "$TMP/boots-other-plan.jsonl"
errline compare-vs-first '^fsmatrix compare: --vs wants A.s sources before it' 2 compare --vs "$F/boots-a1.jsonl"
errline compare-vs-last '^fsmatrix compare: --vs wants B.s sources after it' 2 compare "$F/boots-a1.jsonl" --vs
# the whole of both outputs, as docs/reports.md shows them
golden text-trust-b     trust-b.txt           4 report "$TB"
golden compare-trust    compare-trust.txt     4 compare "$TA" "$TB"
# HTML: an unstable figure's bar is drawn hatched (an SVG pattern), its reason in the tooltip
if reported html "$TB" -o "$TMP/trust.html" 2>"$TMP/err" &&
	grep -q '<pattern id="[^"]*"' "$TMP/trust.html" &&
	grep -Eq '<rect [^>]*fill="url\(#[^)]*\)"><title>md1/ext4/noatime/seqwrite: median [^<]*; not stable: an outlier: repeat 1 at 0\.60x the median</title>' "$TMP/trust.html"; then
	ok verdict-html
else
	fail verdict-html "no hatched bar with its reason in the tooltip"
fi

# Conditions (issue 30): cond-a and cond-b differ in the disks' write cache (on, off) and
# by 20% in one cell. The report shows every control, the fingerprint and each disk with its
# write cache and health; a device warning is a Problem. compare names what differs and calls
# nothing significant across it, unless --across-conditions.
CA=$F/cond-a.jsonl CB=$F/cond-b.jsonl
golden text-conditions     conditions.txt          0 report "$CB"
golden md-conditions       conditions.md           0 report --format md "$CB"
golden compare-conditions  compare-conditions.txt  0 compare "$CA" "$CB"
golden compare-across      compare-across.txt      0 compare --across-conditions "$CA" "$CB"
# Workloads (issue 41): cells that share an id but not the workload (B's seqwrite cells wrote
# 192m where A's wrote 256m, and one of them in 4k blocks) are not tested against each other:
# compare names what differs, marks those rows, and tests the rest (smallfiles, the same in
# both); --across-workloads tests them anyway and says so.
jq -c 'if .type == "cell" and .axes.wtype == "seqwrite" then .result.bytes = 201326592 |
	(if .cell == "md1/xfs/noatime/seqwrite" then .result.bs = 4096 else . end) else . end' \
	"$F/run-b.jsonl" >build/tests/report-work-b.jsonl
golden compare-workloads   compare-workloads.txt   4 compare "$F/run-a.jsonl" build/tests/report-work-b.jsonl
golden compare-across-workloads compare-across-workloads.txt 4 compare --across-workloads "$F/run-a.jsonl" build/tests/report-work-b.jsonl
# A figure far beyond its limit (a disk unthrottled after it was measured: 412 MB/s against
# 8.0) recorded by an image that named the disks for it: the limit no longer holds, and the
# disks are not named
jq -c 'if .type == "cell" and .cell == "disk/ext4/defaults/stream" then .efficiency = 51.5 | .result.write_mbps = 412 |
	.bottleneck.evidence = "at 5150% of what the members gave alone; vdb busy 3% of the time" else . end' \
	"$F/limits-a.jsonl" >"$TMP/stale.jsonl"
has stale-limit '^  disk/ext4/defaults/stream +412\.0 +8\.0 +5150% +stale-limit$' report "$TMP/stale.jsonl"
# Definitions (issue 55): B is trust-a under another plan whose cells made their filesystem
# with -b 1024, mounted noatime, set another stripe cache and did not drop caches, and wrote
# at half the rate. compare names each difference, the plans' and the definitions', and
# calls nothing slower; --across-definitions tests anyway.
jq -c '(if .type == "cell" then .steps = [{"argv": ["mkfs.\(.axes.fstype)", "-f", "/dev/md1"], "status": 0}] |
	.tunables = {"asked": {"stripe_cache_size": 256}} else . end),
	(if .type == "header" then {"v": 1, "type": "event", "event": "plan", "drop_caches": true} else empty end)' \
	"$TA" >"$TMP/def-a.jsonl"
jq -c '(if .type == "header" then .plan.sha256 = "d4" + (.plan.sha256 | .[2:])
	elif .type == "cell" then .steps = [{"argv": ["mkfs.\(.axes.fstype)", "-f", "-b", "1024", "/dev/md1"], "status": 0}] |
	.tunables = {"asked": {"stripe_cache_size": 4096}} | .mount_effective |= sub("relatime"; "noatime") |
	(if .result.mbps then .result.mbps *= 0.5 else . end) else . end),
	(if .type == "header" then {"v": 1, "type": "event", "event": "plan", "drop_caches": false} else empty end)' \
	"$TA" >"$TMP/def-b.jsonl"
has compare-definitions-plan '^plans differ: sha256 9a8b7c6d5e4f / d48b7c6d5e4f$' compare "$TMP/def-a.jsonl" "$TMP/def-b.jsonl"
has compare-definitions '^definitions differ: mkfs none / -b 1024; mount rw,relatime / rw,noatime; tunables stripe_cache_size 256 / 4096; drop_caches yes / no \(4 cells\)$' compare "$TMP/def-a.jsonl" "$TMP/def-b.jsonl"
has compare-definitions-untested '^metrics: 0 faster, 0 slower, 0 no significant difference, 24 not tested \(the workloads or definitions differ' compare "$TMP/def-a.jsonl" "$TMP/def-b.jsonl"
has compare-across-definitions '^metrics: 0 faster, 8 slower, 16 no significant difference' compare --across-definitions "$TMP/def-a.jsonl" "$TMP/def-b.jsonl"
# Findings' contrasts set cells against each other that differ only by filesystem and mount:
# a layer stack is part of the array, in the group and in the label ("on md1+luks"), never
# md1's xfs against md1+luks's xfs under one name
jq -c '., (if .type == "cell" and (.cell | test("/xfs/")) then .cell |= sub("^md1/"; "md1+luks/") |
	.axes.layers = "luks" | .index += 8 | (if .result.mbps then .result.mbps *= 0.5 else . end) else empty end)' \
	"$TA" >"$TMP/layers.jsonl"
"$FSM" report "$TMP/layers.jsonl" >"$TMP/out" 2>&1
if grep -q '^  on md1+luks (seqwrite): xfs/noatime no significant difference from xfs/defaults: MB/s 70.5 vs 70.0' "$TMP/out" &&
	grep -q '^  on md1 (seqwrite): xfs/noatime faster than ext4/defaults: MB/s 141.0 vs 100.0' "$TMP/out" &&
	! grep -q 'xfs/noatime faster than xfs/defaults' "$TMP/out"; then
	ok "contrasts-layers: a layer stack is part of the array in Findings' contrasts"
else
	fail contrasts-layers "md1 and md1+luks set against each other, or not named"
	sed -n '/^Findings/,/^$/p' "$TMP/out" | sed 's/^/#   /'
fi
# Kernels as an axis: kern-a ran under the kernel set 6.1, kern-b and kern-c under 6.12. The
# kernel's release and the image's manifest are the point of such a comparison: compare
# tests kern-a against kern-b (one cell 20% faster) and refuses kern-c only for its write
# cache, which it names alone.
KA=$F/kern-a.jsonl KB=$F/kern-b.jsonl KC=$F/kern-c.jsonl
golden compare-kernels       compare-kernels.txt       0 compare "$KA" "$KB"
golden compare-kernels-cond  compare-kernels-cond.txt  0 compare "$KA" "$KC"
if "$FSM" html "$CB" -o "$TMP/cond.html" 2>"$TMP/err" &&
	grep -q '<h3>Conditions</h3>' "$TMP/cond.html" &&
	grep -q '<tr><th>device</th><td>sdb: ata QEMU HARDDISK serial fsm1 firmware 2.5+; write cache off' "$TMP/cond.html"; then
	ok conditions-html
else
	fail conditions-html "no Conditions table with the disk's write cache"
fi

# same_csv NAME SOURCE WANT: a source read another way gives the same cells as WANT (the CSV
# names no source, so the outputs must be identical).
same_csv() {
	if reported report --format csv "$2" >"$TMP/csv" 2>"$TMP/err" && cmp -s "$TMP/csv" "$3"; then
		ok "$1"
	else
		fail "$1" "report --format csv $2 differs from $3"
		{ cat "$TMP/err"; diff "$3" "$TMP/csv"; } | sed 's/^/#   /' | head -n 20
	fi
}

# A run directory of qemu/run: the results copy is preferred over the console log.
mkdir -p "$TMP/rundir/results" "$TMP/consoledir" "$TMP/mounted/fsmatrix/results"
cp "$F/run-a.jsonl" "$TMP/rundir/results/20260101-120000-a1a1a1.jsonl"
cp "$F/console-garbled.log" "$TMP/rundir/console.log"
same_csv run-dir "$TMP/rundir" "$E/run-a.csv"
# ... and without it, the console log.
cp "$F/console-garbled.log" "$TMP/consoledir/console.log"
"$FSM" report --format csv "$F/console-garbled.log" >"$TMP/console.csv"
same_csv run-dir-console "$TMP/consoledir" "$TMP/console.csv"
# A mounted results partition.
cp "$F/run-a.jsonl" "$TMP/mounted/fsmatrix/results/20260101-120000-a1a1a1.jsonl"
same_csv mounted-dir "$TMP/mounted" "$E/run-a.csv"

# FAT images, bare and partitioned, read with mtools.
if command -v mkfs.vfat >/dev/null && command -v mcopy >/dev/null && command -v sfdisk >/dev/null; then
	export MTOOLS_SKIP_CHECK=1
	img=$TMP/results.img
	truncate -s 8M "$img"
	mkfs.vfat -n FSMRESULTS "$img" >/dev/null
	mmd -i "$img" ::fsmatrix ::fsmatrix/results
	mcopy -i "$img" "$F/run-a.jsonl" ::fsmatrix/results/20260101-120000-a1a1a1.jsonl
	same_csv fat-image "$img" "$E/run-a.csv"
	disk=$TMP/disk.img
	truncate -s 16M "$disk"
	echo 'start=2048, size=14336, type=c' | sfdisk -q "$disk"
	mkfs.vfat -n FSMRESULTS --offset 2048 "$disk" 14336 >/dev/null 2>&1
	mmd -i "$disk@@1M" ::fsmatrix ::fsmatrix/results
	mcopy -i "$disk@@1M" "$F/run-a.jsonl" ::fsmatrix/results/20260101-120000-a1a1a1.jsonl
	same_csv fat-partitioned "$disk" "$E/run-a.csv"
else
	skip fat-image "mkfs.vfat, mcopy or sfdisk is missing (make deps)"
fi

# Axes and filters: an unknown axis is a usage error naming the known ones (status 2); a
# filter that matches no cell says so (status 1) instead of printing empty tables.
# flag_case STATUS REGEX ARGS...: fsmatrix ARGS exits with STATUS, stdout empty, and one
# stderr line matching REGEX; else the case goes to $TMP/why.
flag_case() {
	local want=$1 re=$2
	shift 2
	"$FSM" "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" != "$want" ] || [ -s "$TMP/out" ] || [ "$(wc -l <"$TMP/err")" != 1 ] ||
	   ! grep -Eq -- "$re" "$TMP/err"; then
		{ echo "fsmatrix $*: status $rc (want $want), stderr:"; head -n 3 "$TMP/err"; } >>"$TMP/why"
	fi
}
A=$F/run-a.jsonl B=$F/run-b.jsonl
rm -f "$TMP/why"
flag_case 2 'unknown axis "bogus".*known: array, level' report --by bogus "$A"
flag_case 2 'unknown axis "fss".*known: array' report --where fss=ext4 "$A"
flag_case 1 'no cell matches --where fs=ext5 \(known fs: ext4, xfs\)$' report --where fs=ext5 "$A"
flag_case 1 'no cell matches --where fs=ext4 --where mount=nobh \(known mount: defaults, noatime\)$' report --where fs=ext4 --where mount=nobh "$A"
# each value is there, but not together: nothing to list
flag_case 1 'no cell matches --where fs=ext4 --where mount=noatime$' report --where fs=ext4 --where mount=noatime "$F/ignored.jsonl"
# an empty value is a mistake, not "every cell"
flag_case 2 '--where wants AXIS=VALUE, not "array="' report --where array= "$A"
flag_case 2 '--where wants AXIS=VALUE, not "fs="' html --where fs= "$A" -o "$TMP/x.html"
flag_case 2 'unknown axis "bogus"' compare --by bogus "$A" "$B"
flag_case 1 'no cell matches --where fs=ext5' compare --where fs=ext5 "$A" "$B"
flag_case 2 'unknown axis "bogus"' html --group-by bogus "$A" -o "$TMP/x.html"
flag_case 1 'no cell matches --where fs=ext5' html --where fs=ext5 "$A" -o "$TMP/x.html"
if [ -s "$TMP/why" ]; then
	fail axes-and-filters "$(grep -c '^fsmatrix' "$TMP/why") of 11 cases failed"
	sed 's/^/#   /' "$TMP/why" | head -n 16
else
	ok axes-and-filters
fi

# Hostile inputs. A source with no valid record is "no records" and status 1, as an empty
# file is: 100 MiB of zeros (one endless line: under a memory limit, it must neither grow nor
# hang; devices such as /dev/zero are refused before reading, tests/hostcli/run.sh) and a
# file of random bytes. A record line longer than the limit (4 MiB) is counted as too
# long and the records around it are read as usual.
# hostile NAME SOURCE [REGEX]: fsmatrix report SOURCE must exit 1 with nothing on stdout and a
# "no records" line (matching REGEX too) on stderr, within 60 s and 512 MiB of address space.
hostile() {
	(ulimit -v 524288; timeout 60 "$FSM" report "$2") >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" != 1 ] || [ -s "$TMP/out" ] || ! grep "no records in $2" "$TMP/err" | grep -q -- "${3:-}"; then
		fail "$1" "fsmatrix report $2: status $rc, want 1 and \"no records${3:+ ... $3}\" on stderr only"
		{ head -c 600 "$TMP/out"; echo; head -n 3 "$TMP/err"; } | sed 's/^/#   /'
	else
		ok "$1 ($(head -n 1 "$TMP/err"))"
	fi
}
truncate -s 100M "$TMP/zeros.log"
hostile no-records-zero "$TMP/zeros.log" 'too long'
head -c 1048576 /dev/urandom >"$TMP/random.jsonl"
hostile no-records-random "$TMP/random.jsonl"
: >"$TMP/empty.jsonl"
hostile no-records-empty "$TMP/empty.jsonl"
{ head -n 3 "$F/run-a.jsonl"; head -c 5000000 /dev/zero | tr '\0' x; echo; tail -n +4 "$F/run-a.jsonl"; } \
	>"$TMP/long-line.jsonl"
if ! (ulimit -v 524288; reported report "$TMP/long-line.jsonl") >"$TMP/out" 2>"$TMP/err"; then
	fail long-line "fsmatrix report exited with status $? on a run with one 5 MB line"
	sed 's/^/#   /' "$TMP/err" | head -n 3
elif ! grep -q '^  rejected  1 record line: .*1 too long' "$TMP/out"; then
	fail long-line "the 5 MB line is not counted as too long"
	grep '^  rejected\|^  status' "$TMP/out" | sed 's/^/#   /'
else
	same_csv long-line "$TMP/long-line.jsonl" "$E/run-a.csv"
fi
# A lost record line in records that number cells, not repetitions (trust-a's: "index" is the
# cell's, each repetition carries "rep" and "reps"): the run is incomplete (status 3), the
# repetition named under Problems, as a lost position is in records that number positions.
grep -v '"cell":"md1/xfs/noatime/seqwrite","rep":2,' "$TA" >"$TMP/lost-rep.jsonl"
"$FSM" report "$TMP/lost-rep.jsonl" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 3 ] && grep -q '^  md1/xfs/noatime/seqwrite: 2 of 3 repeats ran$' "$TMP/out" &&
	[ "$(wc -l <"$TMP/lost-rep.jsonl")" = $(($(wc -l <"$TA") - 1)) ]; then
	ok "lost-repetition: status 3, the repetition named"
else
	fail lost-repetition "status $rc (want 3), or the repetition not named"
	grep -A4 '^Problems' "$TMP/out" | sed 's/^/#   /'
fi
# Figures no device gives (docs/records.md: negative, not finite, beyond a unit's bound): a
# record with MB/s -5 and one with 1e308 are rejected lines, their repetitions lost ones; no
# figure of hundreds of digits in report, compare or history.
jq -c 'if .type == "cell" and .cell == "md1/ext4/defaults/seqwrite" and .rep == 1 then .result.mbps = -5
	elif .type == "cell" and .cell == "md1/xfs/defaults/seqwrite" and .rep == 2 then .result.mbps = 1e308
	else . end' "$TA" >"$TMP/impossible.jsonl"
"$FSM" report "$TMP/impossible.jsonl" >"$TMP/out" 2>"$TMP/err"
rc=$?
"$FSM" compare "$TA" "$TMP/impossible.jsonl" >"$TMP/cmp" 2>&1
"$FSM" history --db "$TMP/imp.sqlite" add "$TMP/impossible.jsonl" >/dev/null 2>&1
"$FSM" history --db "$TMP/imp.sqlite" show md1/xfs/defaults/seqwrite mbps >"$TMP/hist" 2>&1
if [ $rc = 3 ] && grep -q '^  rejected  2 record lines: 0 bad checksum, 0 truncated, 0 not JSON, 2 with a figure no device gives$' "$TMP/out" &&
	grep -q '^  md1/ext4/defaults/seqwrite: 2 of 3 repeats ran$' "$TMP/out" &&
	grep -q '^  md1/xfs/defaults/seqwrite: 2 of 3 repeats ran$' "$TMP/out" &&
	! grep -Eq -- '[0-9]{20}|±inf|at -[0-9.]+x' "$TMP/out" "$TMP/cmp" "$TMP/hist" && grep -q '^   1 ' "$TMP/hist"; then
	ok "impossible-figures: rejected as lines, the repetitions lost (status 3), nowhere a figure"
else
	fail impossible-figures "status $rc (want 3), or not counted as rejected, or a figure of them shown"
	grep -E '^  rejected|repeats ran|[0-9]{20}|±inf|at -[0-9.]+x' "$TMP/out" "$TMP/cmp" "$TMP/hist" | sed 's/^/#   /'
fi

# The CSV loads as a table: a header row and every row as wide as it (RFC 4180 quoting).
if command -v python3 >/dev/null; then
	if python3 -c 'import csv,sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows), "ragged rows"
assert rows[0][:2] == ["run", "cell"]' "$E/run-a.csv" 2>"$TMP/err"; then
		ok csv-loads
	else
		fail csv-loads "$(tail -n 1 "$TMP/err")"
	fi
fi

# The HTML report in headless Chromium, and the KCIDB documents against KernelCI's schema: one
# file each, with this file's helpers and variables.
. tests/report/html.sh
. tests/report/kcidb.sh

exit $failed
