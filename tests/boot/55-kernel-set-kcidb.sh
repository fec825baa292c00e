# 55-kernel-set-kcidb: a kernel set built from another pinned Debian ABI than the image's
# (make kernels KERNELS=6.1.0-47: Debian's signed 6.1.170-3 with its own module closure)
# boots and runs a cell; its header names the set, the kernel and the upstream stable
# release that out/kernels/6.1.0-47/set read from the package's changelog; and fsmatrix kcidb
# makes of the run a document that KernelCI's schema accepts, whose checkout is that release's
# stable tag. A second disk, not handed over, stays byte-identical.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

SET=${FSM_TEST_KERNEL_SET:-6.1.0-47}
for f in vmlinuz initramfs.img set; do
	[ -s "$FSM_ROOT/out/kernels/$SET/$f" ] || skip_all "out/kernels/$SET/$f is missing (make kernels KERNELS=$SET)"
done
KERNEL=$SET INITRD=$FSM_ROOT/out/kernels/$SET/initramfs.img
setval() { sed -n "s/^$1=//p" "$FSM_ROOT/out/kernels/$SET/set"; }
UP=$(setval upstream) PKGV=$(setval package_version) REL=$(setval kernel_release)

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-boot
rm -rf "$RUN" && mkdir -p "$RUN/disks"
cat >"$RUN.ini" <<'PLAN'
[global]
name = kernel-set
repeat = 1
timeout = 2m
disk_speed = off
reference = no

[array disk]
level = none

[fs ext4]
type = ext4
mount = defaults

[workload seq]
type = seqwrite
size = 16m
bs = 1m
PLAN
head -c 16M /dev/urandom >"$RUN/disks/fsmtest1.img"
truncate -s 256M "$RUN/disks/fsmtest1.img"
snapshot "$RUN/disks/fsmtest1.img"
boot boot --reuse --keep --no-select --disks 2 --size 256M --timeout 300 --plan "$RUN.ini" \
	--append "fsmatrix.disks=serial:fsmtest0"
expect_status "the run completes (exit 0)" 0
check "the set file names the package's changelog as the source of upstream $UP" \
	bash -c '[ "$1" = changelog ] && [ -n "$2" ] && [ "$3" = "linux-image-$4-amd64" ] ||
		{ echo "upstream_from $1, upstream $2, package $3"; exit 1; }' _ \
	"$(setval upstream_from)" "$UP" "$(setval package)" "$SET"
expect_record "the header names the set and its kernel ($REL)" \
	"select(.type == \"header\") | .kernel.set == \"$SET\" and .kernel.release == \"$REL\""
expect_record "the header's upstream and Debian version are the set file's ($UP, $PKGV)" \
	"select(.type == \"header\") | .kernel.upstream == \"$UP\" and .kernel.debian_version == \"$PKGV\""
expect_record "the cell is ok, under kernel $SET" \
	"select(.type == \"cell\") | .status == \"ok\" and .axes.kernel == \"$SET\""
DOC=$RUN.kcidb.json
check "fsmatrix kcidb writes the run" \
	"$FSM_ROOT/out/fsmatrix" kcidb --origin fsmatrix_boot -o "$DOC" "$RUN"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	check "KernelCI's v5.3 schema accepts it" /usr/bin/python3 "$FSM_ROOT/tests/report/kcidb-validate.py" \
		"$FSM_ROOT/tests/fixtures/kcidb/kcidb-io.schema.v5.3.json" "$DOC"
else
	fail "KernelCI's v5.3 schema accepts it" "Debian's python3-jsonschema is not installed (make deps)"
fi
check "its checkout is stable tag v$UP, its build the set's, its tests DONE with a number" \
	jq -e --arg up "$UP" --arg set "$SET" --arg v "$PKGV" '
		(.checkouts | length == 1) and .checkouts[0].git_commit_name == "v\($up)" and
		.checkouts[0].misc.debian_version == $v and
		(.builds | length == 1) and .builds[0].misc.kernel_set == $set and
		(.tests | length > 0) and all(.tests[]; .status == "DONE" and .number.value > 0 and
			(.path | startswith("fsmatrix.disk.ext4.defaults.seq.")))' "$DOC"
sha256_unchanged "the disk not handed over is byte-identical" "$RUN/disks/fsmtest1.img"
rm -rf "$RUN/disks"
