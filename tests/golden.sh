# tests/golden.sh: golden-file cases for a tests/*/run.sh, sourced by it with the script's
# own arguments, [--update] [FSMATRIX]. The caller sets
#   GOLDEN_PREFIX  its test-name prefix ("check"), so lines read "ok - check/NAME"
#   GOLDEN_DIR     the folder of expected files
# and gets ROOT (the working directory from then on, so paths in outputs read the same
# everywhere), FSM (FSMATRIX, default out/fsmatrix), update (1 with --update: rewrite the
# expected files from the current output), and TMP, a scratch folder removed at exit.
# It calls golden NAME EXPECTED ARGS...: `$FSM ARGS` must print exactly EXPECTED's contents.
# The output compared is stdout, then "--- stderr" and stderr if it said anything, then
# "--- status N" if the status is not 0, so that one file holds all a command says.
# Sets golden_failed=1 on any failure.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
update=0 FSM=${1:-out/fsmatrix}
[ "${1:-}" != --update ] || update=1 FSM=${2:-out/fsmatrix}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
golden_failed=0

golden() {
	local name=$1 want=$GOLDEN_DIR/$2 rc
	shift 2
	# At most 1 MB kept: a runaway output is a failure, not a full disk.
	timeout 60 "$FSM" "$@" 2>"$TMP/golden.err" | head -c 1000000 >"$TMP/golden.out"
	rc=${PIPESTATUS[0]}
	if [ -s "$TMP/golden.err" ]; then
		echo '--- stderr'
		cat "$TMP/golden.err"
	fi >>"$TMP/golden.out"
	[ "$rc" = 0 ] || echo "--- status $rc" >>"$TMP/golden.out"
	if [ "${update:-0}" = 1 ]; then
		cp "$TMP/golden.out" "$want"
		echo "ok - $GOLDEN_PREFIX/$name (updated $want)"
	elif [ ! -f "$want" ]; then
		echo "FAIL - $GOLDEN_PREFIX/$name: $want is missing ($0 --update writes it)"
		golden_failed=1
	elif diff -u "$want" "$TMP/golden.out" >"$TMP/golden.diff"; then
		echo "ok - $GOLDEN_PREFIX/$name"
	else
		echo "FAIL - $GOLDEN_PREFIX/$name: output differs from $want"
		sed 's/^/#   /' "$TMP/golden.diff" | head -n 40
		golden_failed=1
	fi
}
