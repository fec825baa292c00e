#!/bin/bash
# tests/check/run.sh: `fsmatrix check` on small plans, one line per case in tests/run's form
# ("ok - check/NAME" or "FAIL - check/NAME: why", then "#" lines of detail). The plans are
# written here, next to what is expected of them, so that each case reads as one row.
#
#   tests/check/run.sh [FSMATRIX]     (FSMATRIX defaults to out/fsmatrix)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
FSM=${1:-out/fsmatrix}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failed=0

ok() { echo "ok - check/$1"; }
fail() {
	echo "FAIL - check/$1: $2"
	failed=1
	[ ! -s "$TMP/err" ] || sed 's/^/#   /' "$TMP/err" | head -n 5
}

# run NAME ARGS...: fsmatrix check ARGS, its status in $rc, stdout in $TMP/out, stderr in $TMP/err.
run() {
	local name=$1
	shift
	timeout 60 "$FSM" check "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# has FILE REGEX: FILE has a line matching REGEX.
has() { grep -Eq -- "$2" "$1"; }

# A raid0 over N devices, the simplest plan an array of N disks gives.
raid0() {
	printf '[array a]\nlevel = 0\ndevices = %s\n[fs f]\ntype = ext4\n' "$1"
	printf '[workload w]\ntype = seqwrite\nsize = 1m\n'
}

# Every device count a plan allows runs, and the disks are named as the kernel names virtio
# disks: vdb (vda is the results disk) ... vdz, vdaa, vdab, ...
bad=
for n in $(seq 1 32); do
	if [ "$n" = 1 ]; then
		printf '[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n' >"$TMP/p.ini"
	else
		raid0 "$n" >"$TMP/p.ini"
	fi
	run devices "$TMP/p.ini"
	if [ "$rc" != 0 ]; then
		bad="$bad $n (status $rc)"
	elif grep -q 'vd[^a-z ]' "$TMP/out"; then
		bad="$bad $n (a disk name outside a-z)"
	fi
done
raid0 32 >"$TMP/p.ini"
run devices "$TMP/p.ini"
if [ -n "$bad" ]; then
	fail devices-1-to-32 "failed for:$bad"
elif ! has "$TMP/out" '^test disks assumed: /dev/vdb .* /dev/vdz /dev/vdaa .* /dev/vdag$'; then
	fail devices-1-to-32 "32 disks are not vdb ... vdz, vdaa ... vdag"
	grep '^test disks' "$TMP/out" | sed 's/^/#   /'
else
	ok devices-1-to-32
fi

# errors CASE WANT PLAN-TEXT: check refuses the plan (status 1) with exactly WANT on stderr.
errors() {
	local name=$1 want=$2
	printf '%b' "$3" >"$TMP/p.ini"
	run "$name" "$TMP/p.ini"
	if [ "$rc" != 1 ]; then
		fail "$name" "status $rc, want 1"
	elif [ "$(cat "$TMP/err")" != "$want" ]; then
		fail "$name" "stderr differs; want: $want"
	else
		ok "$name"
	fi
}
P=$TMP/p.ini
errors empty-file "$P:1: the plan is empty: it needs an [array NAME], an [fs NAME] and a [workload NAME] section" ''
errors only-comments "$P:2: the plan holds only comments and blank lines: it needs an [array NAME], an [fs NAME] and a [workload NAME] section" '# to do\n\n'
errors global-only "$P:2: no [array NAME], [fs NAME] or [workload NAME] section: a plan needs at least one of each (level = none for a raw disk)" '[global]\nrepeat = 2\n'
errors duplicate-after-bad "$P:2: level: expected none, 0, 1, 4, 5, 6 or 10 (level = nine)
$P:3: duplicate key \"level\" in [array a] (first at line 2)" '[array a]\nlevel = nine\nlevel = 0\ndevices = 2\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n'
errors long-mount-line "$P:4: mount: options are one word, separated by commas (mount = noatime,noatime,noatime,noatime,noatime,...)" "[array a]\\nlevel = none\\n[fs f]\\nmount = $(printf 'noatime,%.0s' $(seq 50)) x\\ntype = ext4\\n[workload w]\\ntype = seqwrite\\nsize = 1m\\n"

# A plan saved by Windows Notepad: a UTF-8 byte-order mark and CRLF line ends.
printf '\xef\xbb\xbf[array a]\r\nlevel = none\r\n[fs f]\r\ntype = ext4\r\n[workload w]\r\ntype = seqwrite\r\nsize = 1m\r\n' >"$P"
run notepad-bom "$P"
if [ "$rc" = 0 ] && has "$TMP/out" '^plan p .*: 1 cells'; then
	ok notepad-bom
else
	fail notepad-bom "status $rc"
fi

exit $failed
