# tests/report/kcidb.sh: the KCIDB cases of tests/report/run.sh, which sources it (its
# golden, fail, ok, $FSM and $F).
# shellcheck shell=bash

# fsmatrix kcidb's documents of recorded runs, checked against KernelCI's published schema
# (kcidb-io's v5.3, vendored in tests/fixtures/kcidb/) with Debian's python3-jsonschema; then
# documents broken on purpose, each of which the validator must refuse, so that it is seen
# to bite.
golden kcidb-kernels     kcidb-kernels.json    0 kcidb --origin fsmatrix_test "$F/real-kernels.jsonl"
KS=tests/fixtures/kcidb/kcidb-io.schema.v5.3.json
validate() { /usr/bin/python3 tests/report/kcidb-validate.py "$KS" "$1"; }
if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	fail kcidb-schema "Debian's python3-jsonschema is not installed (make deps installs it)"
else
	n=0 bad=
	for src in real-kernels.jsonl real-series.jsonl real-tunables.jsonl real-secboot.jsonl \
		   real-smoke run-b.jsonl unusable.jsonl partial.jsonl "real-kernels.jsonl $F/real-series.jsonl $F/real-tunables.jsonl"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		if ! "$FSM" kcidb --origin fsmatrix_test -o "$TMP/kcidb.json" $(printf "$F/%s" "$src") 2>"$TMP/err"; then
			bad="$bad; kcidb $src failed: $(head -n 1 "$TMP/err")"
		elif ! out=$(validate "$TMP/kcidb.json"); then
			bad="$bad; $src: $out"
		fi
	done
	# the three real runs together: 6.1 (all three) and 6.12 make two builds and two checkouts
	if [ -z "$bad" ] && ! out=$(validate "$TMP/kcidb.json" | grep -x 'valid: 2 checkouts, 2 builds, [0-9]* tests'); then
		bad="$bad; three runs: $(validate "$TMP/kcidb.json"), want 2 checkouts and 2 builds"
	fi
	if [ -n "$bad" ]; then fail kcidb-schema "${bad#; }"; else ok "kcidb-schema ($n documents valid)"; fi
	# a kernel set that never booted (its cells errors): its own build, MISS, not 6.1's
	jq -c 'if .type == "cell" and .axes.kernel == "6.12" then .axes.kernel = "broken" |
		.cell = "disk/ext4/defaults/seq@broken" | .status = "error" | .error = "given up" else . end' \
		"$F/real-kernels.jsonl" >"$TMP/unbooted.jsonl"
	if "$FSM" kcidb --origin fsmatrix_test -o "$TMP/unbooted.json" "$TMP/unbooted.jsonl" 2>"$TMP/err" &&
		out=$(validate "$TMP/unbooted.json") &&
		jq -e '(.builds | map(.status) | sort) == ["MISS", "PASS"] and
			([.tests[] | select(.build_id == "fsmatrix_test:kernel-set-broken")] |
			 length == 1 and .[0].status == "ERROR" and .[0].path == "fsmatrix.disk.ext4.defaults.seq")' \
			"$TMP/unbooted.json" >/dev/null; then
		ok kcidb-unbooted-set
	else
		fail kcidb-unbooted-set "${out:-$(head -n 1 "$TMP/err")}: want a MISS build of set broken with its ERROR test"
	fi
	# a run given twice: one copy, said on stderr, not two tests of each id (KCIDB keeps one
	# object of an id, whichever came last); the copy with more cell records is kept
	"$FSM" kcidb --origin fsmatrix_test "$F/real-kernels.jsonl" >"$TMP/once.json" 2>/dev/null
	head -n 12 "$F/real-kernels.jsonl" >"$TMP/kernels-part.jsonl"
	if "$FSM" kcidb --origin fsmatrix_test "$TMP/kernels-part.jsonl" "$F/real-kernels.jsonl" "$F/real-kernels.jsonl" \
		>"$TMP/twice.json" 2>"$TMP/err" && cmp -s "$TMP/once.json" "$TMP/twice.json" &&
		[ "$(grep -c '^fsmatrix: kcidb: run 20261203-160600-0fa3c3 is given twice: the copy from .* left out' "$TMP/err")" = 2 ] &&
		grep -q "the copy from $TMP/kernels-part.jsonl (1 cell records) is left out" "$TMP/err"; then
		ok "kcidb-twice: a run given twice is written once, the fuller copy, and said"
	else
		fail kcidb-twice "not the document of the run once, or not said: $(jq '[.tests[].id] | "\(length) tests, \(unique | length) ids"' "$TMP/twice.json")"
		sed 's/^/#   /' "$TMP/err" | head -n 5
	fi
	# a cell with a failed repetition beside its ok ones: its tests ERROR with the error and
	# the ok ones' figure, not DONE with the error nowhere
	jq -c 'if .type == "cell" and .cell == "md1/xfs/noatime/seqwrite" and .rep == 2 then
		.status = "error" | .error = "mkfs.xfs exited 1: cannot open /dev/md1" | del(.result) else . end' \
		"$TA" >"$TMP/failed-rep.jsonl"
	if "$FSM" kcidb --origin fsmatrix_test -o "$TMP/failed-rep.json" "$TMP/failed-rep.jsonl" 2>"$TMP/err" &&
		out=$(validate "$TMP/failed-rep.json") &&
		jq -e '[.tests[] | select(.misc.cell == "md1/xfs/noatime/seqwrite")] | length > 0 and
			all(.status == "ERROR" and .misc.failed == 1 and .misc.ok == 2 and .number.value > 0 and
			    .misc.error == "mkfs.xfs exited 1: cannot open /dev/md1")' "$TMP/failed-rep.json" >/dev/null &&
		jq -e '[.tests[] | select(.misc.cell != "md1/xfs/noatime/seqwrite") | .status] | unique == ["DONE"]' \
			"$TMP/failed-rep.json" >/dev/null; then
		ok "kcidb-failed-repetition: ERROR with its error and the ok repetitions' figure"
	else
		fail kcidb-failed-repetition "${out:-$(head -n 1 "$TMP/err")}: $(jq -c '[.tests[] | select(.misc.cell == "md1/xfs/noatime/seqwrite") | {status, error: .misc.error}][0]' "$TMP/failed-rep.json")"
	fi
	"$FSM" kcidb --origin fsmatrix_test "$F/real-kernels.jsonl" >"$TMP/good.json" 2>/dev/null
	n=0 bad=
	while IFS='|' read -r what filter; do
		n=$((n + 1))
		jq "$filter" "$TMP/good.json" >"$TMP/broken.json"
		if out=$(validate "$TMP/broken.json"); then
			bad="$bad; $what: $out"
		fi
	done <<-'EOF'
		a path with /|.tests[0].path = "fsmatrix.disk/ext4.defaults.seq.mbps"
		a path with =|.tests[0].path = "fsmatrix.disk.ext4.data=ordered.seq.mbps"
		an empty path node|.tests[0].path = "fsmatrix..seq"
		an origin with capitals|.tests[0].origin = "Fsmatrix"
		an id without its origin|.builds[0].id = "6.1.0-57-amd64"
		a status not in the schema|.tests[0].status = "OK"
		a number as a string|.tests[0].number.value = "78.03"
		a prefix not in the schema|.tests[0].number.prefix = "si"
		a property the schema lacks|.tests[0].median = 78.03
		a null|.tests[0].start_time = null
		a minor version past 5.3|.version.minor = 4
		a test of no build|.tests[0].build_id = "fsmatrix_test:none"
	EOF
	if [ -n "$bad" ]; then fail kcidb-schema-bites "accepted: ${bad#; }"; else ok "kcidb-schema-bites ($n broken documents refused)"; fi
fi
