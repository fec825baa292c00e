#!/bin/bash
# tests/history/run.sh: `fsmatrix history` on series of runs made from the recorded runs of
# tests/fixtures/report/ (cond-a.jsonl, and cond-b.jsonl: the same machine with the disks'
# write cache off). Twelve runs under twelve kernel releases, added in date order, where the
# releases from 6.1.0-15 write 20% slower: the change point must be found at the first slow
# release by kernel version, and the runs of other conditions kept apart. Then what it must
# refuse, each with one line and the database byte for byte as it was.
#
#   tests/history/run.sh [FSMATRIX]     (FSMATRIX defaults to out/fsmatrix)
#
# One line per test, "ok - history/NAME" or "FAIL - history/NAME: why" (then "#" lines), as
# tests/run expects. Needs jq (the TEST tier's). Exit status 1 on failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
FSM=$(realpath "${1:-out/fsmatrix}")
F=tests/fixtures/report
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

TIER=history
. "$ROOT/tests/tier.sh"
detail() { sed 's/^/#   /' "$@" | head -n 20; }

if ! command -v jq >/dev/null; then
	echo "skip - history/all: jq is not installed (make deps)"
	exit 0
fi

# mkrun BASE ID DAY RELEASE SCALE: BASE's records as run ID, DAY days after 2026-01-01 12:00, under
# kernel RELEASE (in the header, the conditions' inputs and a fingerprint of its own), every
# cell's mbps times SCALE. Prints the file's path.
mkrun() {
	local base=$1 id=$2 day=$3 rel=$4 scale=$5 fp out=$TMP/runs/$2.jsonl
	mkdir -p "$TMP/runs"
	fp=$(printf '%s %s' "$(head -n 1 "$base" | jq -r .conditions.fingerprint)" "$rel" | sha256sum | cut -c1-64)
	jq -c --arg id "$id" --arg rel "$rel" --arg fp "$fp" --argjson t $((1767268800 + day * 86400)) \
		--argjson k "$scale" '
		if .type == "header" then .run = $id | .time = $t | .kernel.release = $rel
			| .conditions.inputs.kernel.release = $rel | .conditions.fingerprint = $fp
		elif .type == "cell" then .fingerprint = $fp | (if .result.mbps then .result.mbps *= $k else . end)
		elif has("run") then .run = $id else . end' "$base" >"$out"
	echo "$out"
}

# the series: by date the releases come mixed; from 6.1.0-15 on, 20% slower, with a jitter
# of a few tenths of a percent from run to run
RELS=(9 15 10 16 11 17 12 18 13 19 14 20)
SERIES=()
for i in "${!RELS[@]}"; do
	r=${RELS[$i]}
	k=$(awk -v r="$r" -v i="$i" 'BEGIN { printf "%.4f", (r >= 15 ? 0.8 : 1) * (1 + 0.003 * ((i * 3) % 5 - 2)) }')
	SERIES+=("$(mkrun $F/cond-a.jsonl "202601$(printf %02d $((1 + i)))-120000-h$i" "$i" "6.1.0-$r-amd64" "$k")")
done
OTHER=()
for i in 0 1 2; do
	OTHER+=("$(mkrun $F/cond-b.jsonl "202603$(printf %02d $((1 + i)))-120000-wc$i" $((59 + i)) "6.1.0-$((9 + i))-amd64" 1)")
done
DB=$TMP/h.sqlite
CELL=md1/ext4/defaults/seqwrite

# add, then add again: the second changes no byte
if "$FSM" history --db "$DB" add "${SERIES[@]}" >"$TMP/add1" 2>&1 && sum1=$(sha256sum <"$DB") &&
	"$FSM" history --db "$DB" add "${SERIES[@]:0:3}" >"$TMP/add2" 2>&1 && [ "$(sha256sum <"$DB")" = "$sum1" ] &&
	grep -q "all there already" "$TMP/add2" && [ "$(grep -c ': 8 cells, 24 figures, added' "$TMP/add1")" = 12 ]; then
	ok "add, then the same runs again: the file unchanged"
else
	fail "add twice" "the second add changed the file, or the first did not add 12 runs"
	detail "$TMP/add1" "$TMP/add2"
fi
if "$FSM" history --db "$DB" list >"$TMP/list" && [ "$(grep -c -- '-h[0-9]*  ' "$TMP/list")" = 12 ] &&
	grep -q '^12 runs in' "$TMP/list" && head -n 2 "$TMP/list" | grep -q '20260101-120000-h0 .*6.1.0-9-amd64'; then
	ok "list: the 12 runs, by date"
else
	fail "list" "not the 12 runs in date order"
	detail "$TMP/list"
fi

# by kernel: versions in order (9 before 10, not as text) and the step at 6.1.0-15
"$FSM" history --db "$DB" show $CELL mbps --by kernel --html "$TMP/h.html" >"$TMP/show" 2>&1
rc=$?
first=$(awk '$1 == "1" { print $5 }' "$TMP/show")
seventh=$(awk '$1 == "7" { print $5 }' "$TMP/show")
if [ $rc = 0 ] && [ "$first" = 6.1.0-9-amd64 ] && [ "$seventh" = 6.1.0-15-amd64 ]; then
	ok "show --by kernel: releases in version order"
else
	fail "show --by kernel order" "status $rc, #1 $first, #7 $seventh"
	detail "$TMP/show"
fi
if [ "$(grep -c '^  at #' "$TMP/show")" = 1 ] &&
	grep -q '^  at #7, run 20260102-120000-h1 (6.1.0-15-amd64), cond A: mean 99.90 -> 80.04 MB/s (-19.9%, worse),.* 6 runs before, 6 after' "$TMP/show"; then
	ok "show --by kernel: one change point, at the first slow release, -19.9%"
else
	fail "show change point" "not one change point at #7 (6.1.0-15) of -20%"
	detail "$TMP/show"
fi
if grep -q '<svg' "$TMP/h.html" && grep -q 'class="cp"' "$TMP/h.html" && grep -q -- '-19.9% p' "$TMP/h.html" &&
	[ "$(grep -c '<circle' "$TMP/h.html")" = 12 ]; then
	ok "show --html: a chart of 12 runs with the change point"
else
	fail "show --html" "no chart, or not 12 points and a change point"
fi
# by date the releases come mixed: no step
"$FSM" history --db "$DB" show $CELL mbps --window 5 --p 0.01 >"$TMP/date" 2>&1
if head -n 4 "$TMP/date" | grep -q '^   1  20260101-120000-h0 ' && grep -q 'window 5, p 0.01' "$TMP/date"; then
	ok "show by date, --window and --p"
else
	fail "show by date" "not in date order, or the options not taken"
	detail "$TMP/date"
fi

# other conditions: apart, a group of their own, never in A's series
"$FSM" history --db "$DB" add "${OTHER[@]}" >/dev/null 2>&1
"$FSM" history --db "$DB" show $CELL mbps --by kernel >"$TMP/cond" 2>&1
if [ "$(grep -Ec ' B +stable$' "$TMP/cond")" = 3 ] && [ "$(grep -Ec ' A +stable$' "$TMP/cond")" = 12 ] &&
	grep -q 'differs from A: write_cache on vs off on disk fsm1' "$TMP/cond" &&
	grep -Eq '^  at #[0-9]+, run 20260102-120000-h1 \(6.1.0-15-amd64\), cond A: .*6 runs before, 6 after' "$TMP/cond"; then
	ok "runs of other conditions: group B, A's change point as before"
else
	fail "conditions" "the write-cache-off runs not apart"
	detail "$TMP/cond"
fi

# another plan's runs: the same cell ids, a seqwrite of 64m instead of 256m, under the same
# conditions (release 6.1.0-20, as the last runs of the series): a group of their own, the
# difference named, never a change point of A's series
PLANB=()
for i in 0 1 2; do
	f=$(mkrun $F/cond-a.jsonl "202602$(printf %02d $((1 + i)))-120000-p$i" $((40 + i)) "6.1.0-20-amd64" 0.7)
	jq -c 'if .type == "header" then .plan.sha256 = "b2" + (.plan.sha256 // "" | .[2:])
		elif .type == "cell" and .axes.wtype == "seqwrite" then .result.bytes = 67108864 else . end' "$f" >"$f.b"
	mv "$f.b" "$f"
	PLANB+=("$f")
done
"$FSM" history --db "$DB" add "${PLANB[@]}" >/dev/null 2>&1
"$FSM" history --db "$DB" show $CELL mbps >"$TMP/defs" 2>&1
if [ "$(grep -Ec -- '-p[0-9] .* B +stable$' "$TMP/defs")" = 3 ] &&
	grep -q 'B fingerprint [0-9a-f]*, differs from A: definition: workload bytes 256m / 64m; plan sha256 9a8b7c6d5e4f / b28b7c6d5e4f;' "$TMP/defs" &&
	! grep -q '^  at .*-p[0-9]' "$TMP/defs"; then
	ok "runs of another plan's definition: a group apart, the difference named, no change point"
else
	fail "definitions" "another plan's 64m writes not a group apart"
	tail -n 4 "$TMP/defs" | detail
fi

# a run cut short: its trailer gone, a cell line lost in the middle and its last line torn;
# kept and said incomplete, then a whole copy completes it
W=$(mkrun $F/cond-a.jsonl 20260601-120000-cut 151 6.1.0-20-amd64 1)
TDB=$TMP/cut.sqlite
grep -v '"type":"trailer"' "$W" | grep -v '"cell":"md1/xfs/noatime/seqwrite","rep":2,' >"$TMP/cut.jsonl"
printf '%s' "$(grep '"cell":"md1/xfs/noatime/smallfiles","rep":3,' "$W" | head -c 200)" >>"$TMP/cut.jsonl"
sed -i '/"cell":"md1\/xfs\/noatime\/smallfiles","rep":3,/{$!d}' "$TMP/cut.jsonl"
"$FSM" history --db "$TDB" add "$TMP/cut.jsonl" >"$TMP/cut1" 2>&1
"$FSM" history --db "$TDB" list >"$TMP/cutl" 2>&1
"$FSM" history --db "$TDB" show md1/xfs/noatime/seqwrite mbps >"$TMP/cuts" 2>&1
"$FSM" history --db "$TDB" add "$W" >"$TMP/cut2" 2>&1
"$FSM" history --db "$TDB" list >"$TMP/cutl2" 2>&1
"$FSM" history --db "$TDB" show md1/xfs/noatime/seqwrite mbps >"$TMP/cuts2" 2>&1
if grep -q '^run 20260601-120000-cut: 8 cells, 24 figures, added, incomplete (no trailer; 1 record line rejected; 2 repetitions without a record): a fuller copy of the run completes it$' "$TMP/cut1" &&
	grep -q 'cut.jsonl  incomplete (no trailer' "$TMP/cutl" && grep -Eq '^   1 .* 2 .*\(run incomplete\)$' "$TMP/cuts" &&
	grep -q '^run 20260601-120000-cut: 8 cells, 24 figures, a fuller copy (24 cell records, 22 before): completed$' "$TMP/cut2" &&
	! grep -q incomplete "$TMP/cutl2" "$TMP/cuts2" && grep -Eq '^   1 .* 3 .* stable$' "$TMP/cuts2"; then
	ok "a run cut short: kept as incomplete and said so, then completed by its whole copy"
else
	fail "incomplete run" "not kept as incomplete, or not completed"
	detail "$TMP/cut1" "$TMP/cutl" "$TMP/cuts" "$TMP/cut2" "$TMP/cutl2"
fi


# real runs: a run without cells is skipped; a run under two kernel sets gives a point per
# set, one conditions group (the kernels' own differences aside); a run from before the
# conditions record is a group of its own
RDB=$TMP/real.sqlite
"$FSM" history --db "$RDB" add $F/real-smoke $F/real-kernels.jsonl $F/real-series.jsonl >"$TMP/radd" 2>&1
rc=$?
"$FSM" history --db "$RDB" show disk/ext4/defaults/seq mbps >"$TMP/real" 2>&1
"$FSM" history --db "$RDB" show disk/ext4/defaults/seq@6.12 mbps >"$TMP/real612" 2>&1
if [ $rc = 0 ] && grep -q '^run 20261129-195109-379825: no cell with a figure (no ok repeat): skipped' "$TMP/radd" &&
	grep -q '^run 20261203-160600-0fa3c3: 2 cells, 4 figures, added' "$TMP/radd" &&
	grep -Eq '^   1  20261201-000320-f616e5 .* A +too few' "$TMP/real" &&
	grep -Eq '^   2  20261203-160600-0fa3c3 .*6.1.0-57-amd64 \(6.1\) .* B +too few' "$TMP/real" &&
	grep -Eq '^   3  20261203-160600-0fa3c3 .*6.12.117\+deb12-amd64 \(6.12\) .* B +too few' "$TMP/real" &&
	grep -q 'A fingerprint none, no conditions recorded' "$TMP/real" &&
	grep -q ': 1 point by date' "$TMP/real612"; then
	ok "real runs: a run without cells skipped, a point per kernel set, unrecorded conditions apart"
else
	fail "real runs" "not as expected"
	detail "$TMP/radd" "$TMP/real" "$TMP/real612"
fi

# records' strings that hold terminal escapes (a run id, a kernel release, a cell id, a
# verdict's reason through the cell): shown with '?' as report and compare show them, never
# raw on the terminal
EDB=$TMP/esc.sqlite
jq -c 'if .type == "header" then .run = "20260401-120000-e\u001b[2J" | .kernel.release = "6.1\u001b]0;owned\u0007"
	elif .type == "cell" then .cell = (.cell | sub("seqwrite"; "seq\u001b[31mwrite")) | .axes.workload = "seq\u001b[31mwrite"
	elif has("run") then .run = "20260401-120000-e\u001b[2J" else . end' $F/cond-a.jsonl >"$TMP/esc.jsonl"
ecell=$(jq -r 'select(.type == "cell") | .cell' "$TMP/esc.jsonl" | head -n 1)
"$FSM" history --db "$EDB" add "$TMP/esc.jsonl" >"$TMP/esc.out" 2>&1
for sub in list cells; do "$FSM" history --db "$EDB" $sub; done >>"$TMP/esc.out" 2>&1
"$FSM" history --db "$EDB" show "$ecell" mbps >>"$TMP/esc.out" 2>&1
if ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$TMP/esc.out" && grep -q '^20260401-120000-e?\[2J ' "$TMP/esc.out" &&
	grep -q 'md1/ext4/defaults/seq?\[31mwrite' "$TMP/esc.out" && grep -q '6.1?\]0;owned?' "$TMP/esc.out"; then
	ok "terminal escapes in records: shown as '?' by add, list, cells and show"
else
	fail "terminal escapes" "a control character reached the output, or the strings are not there"
	cat -v "$TMP/esc.out" | detail
fi

# a history of schema 1 (no plans, completeness or definitions): read as it is, unchanged,
# then brought to schema 2 by the next add
cp "$DB" "$TMP/v1.db"
if python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript("ALTER TABLE figures DROP COLUMN definition; ALTER TABLE runs DROP COLUMN plan; "
                "ALTER TABLE runs DROP COLUMN complete; ALTER TABLE runs DROP COLUMN records; "
                "ALTER TABLE runs DROP COLUMN why; PRAGMA user_version = 1; VACUUM")
c.close()' "$TMP/v1.db" 2>"$TMP/py"; then
	before=$(sha256sum <"$TMP/v1.db")
	"$FSM" history --db "$TMP/v1.db" list >"$TMP/v1.list" 2>&1 && l=ok
	"$FSM" history --db "$TMP/v1.db" show $CELL mbps >"$TMP/v1.show" 2>&1 && s=ok
	same=$([ "$(sha256sum <"$TMP/v1.db")" = "$before" ] && echo yes)
	"$FSM" history --db "$TMP/v1.db" add "$W" >"$TMP/v1.add" 2>&1
	"$FSM" history --db "$TMP/v1.db" show $CELL mbps >>"$TMP/v1.add" 2>&1
	v=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version").fetchone()[0])' "$TMP/v1.db")
	if [ "${l:-}" = ok ] && [ "${s:-}" = ok ] && [ "$same" = yes ] && grep -q '^18 runs in' "$TMP/v1.list" &&
		grep -q '^  12  20260112-120000-h11 ' "$TMP/v1.show" && ! grep -q 'definition' "$TMP/v1.show" &&
		grep -q '^run 20260601-120000-cut: 8 cells, 24 figures, added$' "$TMP/v1.add" &&
		grep -q 'differs from A: definition: no definition recorded (a history of schema 1)' "$TMP/v1.add" &&
		[ "$v" = 2 ]; then
		ok "a history of schema 1: read unchanged, then brought to schema 2 by add"
	else
		fail "schema 1" "list ${l:-failed}, show ${s:-failed}, unchanged ${same:-no}, version after add $v"
		tail -n 3 "$TMP/v1.show" "$TMP/v1.add" | detail
	fi
else
	fail "schema 1" "python3 could not make one"
	detail "$TMP/py"
fi

# refused ARGS...: exit 1, nothing on stdout, one line on stderr, $DB unchanged
refused() {
	local want=$1 name=$2 db=$3
	shift 3
	local before after rc
	before=$(sha256sum <"$db")
	"$FSM" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	after=$(sha256sum <"$db")
	if [ $rc = "$want" ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" = 1 ] && [ "$before" = "$after" ]; then
		ok "$name: $(cat "$TMP/err")"
	else
		fail "$name" "status $rc (want $want), $(wc -c <"$TMP/out") bytes out, $(wc -l <"$TMP/err") lines err, file $([ "$before" = "$after" ] && echo same || echo CHANGED)"
		detail "$TMP/err"
	fi
}
refused 1 "a cell not in it" "$DB" history --db "$DB" show md9/none mbps
refused 1 "a metric no cell has" "$DB" history --db "$DB" show $CELL iops
refused 1 "a metric the cell lacks" "$DB" history --db "$DB" show $CELL files_per_s
refused 1 "add: a source that is not there" "$DB" history --db "$DB" add "${OTHER[0]}" "$TMP/none.jsonl"
refused 2 "show with one operand" "$DB" history --db "$DB" show $CELL
refused 2 "--window 1" "$DB" history --db "$DB" show $CELL mbps --window 1
refused 2 "--p 0" "$DB" history --db "$DB" show $CELL mbps --p 0
refused 2 "--html onto the database" "$DB" history --db "$DB" show $CELL mbps --html "$DB"

# two plans under one run id: refused, in the sources or against the history
jq -c 'if .type == "header" then .plan.sha256 = "c3" + (.plan.sha256 // "" | .[2:]) else . end' "$W" >"$TMP/otherplan.jsonl"
refused 1 "two plans under one run id: against the history" "$TDB" history --db "$TDB" add "$TMP/otherplan.jsonl"
refused 1 "two plans under one run id: in the sources" "$DB" history --db "$DB" add "$W" "$TMP/otherplan.jsonl"

# a file that is not a database
printf 'not a database, but text long enough to look like a header of one...\n%.0s' {1..20} >"$TMP/text.db"
for sub in list "show $CELL mbps" "add ${OTHER[0]}"; do
	# shellcheck disable=SC2086
	refused 1 "not a database: $sub" "$TMP/text.db" history --db "$TMP/text.db" $sub
done
# a history of a newer schema: user_version (bytes 60-63 of the header) 3
cp "$DB" "$TMP/newer.db"
printf '\000\000\000\003' | dd of="$TMP/newer.db" bs=1 seek=60 conv=notrunc status=none
for sub in list "show $CELL mbps" "add ${OTHER[0]}"; do
	# shellcheck disable=SC2086
	refused 1 "newer schema: $sub" "$TMP/newer.db" history --db "$TMP/newer.db" $sub
done
# an SQLite database of another program's (tables, user_version 0): the history with its version cleared
cp "$DB" "$TMP/other.db"
printf '\000\000\000\000' | dd of="$TMP/other.db" bs=1 seek=60 conv=notrunc status=none
refused 1 "an SQLite database that is no history" "$TMP/other.db" history --db "$TMP/other.db" add "${OTHER[0]}"
# the history's version with another program's tables, or none, and a negative version: each
# a refusal, not a crash (a statement finalized twice had made them a SIGBUS)
cp "$DB" "$TMP/negative.db"
printf '\377\377\377\375' | dd of="$TMP/negative.db" bs=1 seek=60 conv=notrunc status=none
refused 1 "an SQLite database of a negative version: list" "$TMP/negative.db" history --db "$TMP/negative.db" list
if python3 -c 'import sqlite3, sys
for f, sql in ((sys.argv[1], "PRAGMA user_version = 1; CREATE TABLE t(k)"),
               (sys.argv[2], "PRAGMA user_version = 1; CREATE TABLE runs(k)"),
               (sys.argv[3], "PRAGMA user_version = -3; CREATE TABLE t(k)")):
    c = sqlite3.connect(f); c.executescript(sql); c.commit(); c.close()' \
	"$TMP/v1-other.db" "$TMP/v1-runs.db" "$TMP/v-3.db" 2>"$TMP/py"; then
	for f in v1-other v1-runs v-3; do
		for sub in list cells "show $CELL mbps" "add ${OTHER[0]}"; do
			# shellcheck disable=SC2086
			refused 1 "an SQLite database $f: $sub" "$TMP/$f.db" history --db "$TMP/$f.db" $sub
		done
	done
else
	fail "SQLite databases of other schemas" "python3 could not make them"
	detail "$TMP/py"
fi
# add to a new file with a bad source: no file left
if ! "$FSM" history --db "$TMP/new.db" add "$TMP/none.jsonl" >/dev/null 2>&1 && [ ! -e "$TMP/new.db" ]; then
	ok "add to a new file from a bad source: no file made"
else
	fail "add to a new file from a bad source" "a file was left"
fi
refused 1 "list of a file not there" "$DB" history --db "$TMP/none.db" list
# figures of runs it does not list (found by tests/fuzz/fuzz_history: a header of 0 points
# and a unit of "(null)")
cp "$DB" "$TMP/norun.db"
if python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM runs"); c.commit(); c.close()' "$TMP/norun.db"; then
	refused 1 "figures of no run it lists" "$TMP/norun.db" history --db "$TMP/norun.db" show $CELL mbps
fi
refused 1 "add: no run with a figure" "$DB" history --db "$DB" add $F/real-smoke
exit $failed
