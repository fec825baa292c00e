# 28-tar-file: the tar workload on a real source tree that reaches the guest through
# `qemu/run --file`, with no manual step: every pinned source tarball in dl/ extracted and
# tarred again (about 135 MB and 10,000 files), copied onto the results disk's fsmatrix/
# (which grows to hold it), found there by the plan's `file = src-tree.tar`, extracted and
# synced; the files and bytes the cell counts are those of the tree on the host.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
srcs=("$FSM_ROOT"/dl/*.orig.tar.gz "$FSM_ROOT"/dl/*.orig.tar.bz2 "$FSM_ROOT"/dl/*.orig.tar.xz)
[ -s "${srcs[0]}" ] || skip_all "no pinned sources in dl/ (make userland downloads them)"

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$FSM_TEST_RUNS"
tarball=$FSM_TEST_RUNS/src-tree.tar
for f in "${srcs[@]}"; do [ -s "$f" ] && tar -xf "$f" -C "$tree"; done
files=$(find "$tree" -type f | wc -l)
bytes=$(find "$tree" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
tar -cf "$tarball" -C "$tree" --sort=name --owner=0 --group=0 --numeric-owner .
check "the tree holds at least 5,000 files and 50 MB ($files files, $bytes bytes)" \
	test "$files" -ge 5000 -a "$bytes" -ge 50000000

boot tarfile --disks 1 --size 1G --timeout 900 --plan "$FSM_ROOT/tests/plans/tar-file.ini" \
	--file "$tarball"
expect_status "the run completes (exit 0)" 0
check "the results disk grew to hold the archive" \
	test "$(stat -c %s "$RUN/results.img")" -gt "$(stat -c %s "$tarball")"
expect_record "the untar cell: ok, the archive from the results disk, $files files and $bytes bytes" \
	"select(.type == \"cell\" and .cell == \"disk/ext4/defaults/untar\") | .status == \"ok\" and .result.archive == \"/results/fsmatrix/src-tree.tar\" and .result.files == $files and .result.bytes == $bytes and .result.time_s > 0 and .result.sync_s >= 0"
rm -f "$tarball" "$RUN/src-tree.tar"   # 140 MB each; the record says what was read
