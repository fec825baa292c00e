# tests/tier.sh: the lines every host tier (tests/*/run.sh) prints in tests/run's form, sourced
# after the tier sets TIER to its directory's name:
#   ok NAME                   "ok - TIER/NAME"
#   fail NAME WHY [LINE...]   "FAIL - TIER/NAME: WHY", then each LINE as "# LINE"; the tier's
#                             $failed becomes 1 (a tier that exits with it fails as a whole);
#                             a tier that sets FAIL_DETAIL=FILE also gets that file's first
#                             lines (what the command under test said on stderr)
#   skip NAME WHY             "skip - TIER/NAME: WHY"
# shellcheck shell=bash
failed=0
ok() { echo "ok - $TIER/$1"; }
fail() {
	local l
	echo "FAIL - $TIER/$1: $2"
	failed=1
	shift 2
	for l in "$@"; do echo "# $l"; done
	[ -z "${FAIL_DETAIL:-}" ] || [ ! -s "$FAIL_DETAIL" ] || sed 's/^/#   /' "$FAIL_DETAIL" | head -n 5
}
skip() { echo "skip - $TIER/$1: $2"; }
