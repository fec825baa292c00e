# 50-kernel-612-small: Debian's 6.12 on a 256 MiB virtio disk with ext4 at 1 KiB blocks, with
# qemu/run's defaults (cache=none, aio=native): 32 MiB streamed and fdatasync'd, a warm-up and
# two cells, all ok, and no I/O error on the console. On qemu 7.2 with fresh (fallocated)
# images, qemu misread the host's O_DIRECT alignment as 4 KiB and padded every write at a 1 KiB
# offset; 6.12's writeback of such a file reached it as one merged request of 1024 vectors,
# which the padding could not hold (IOV_MAX): EIO at fdatasync in every boot (docs/image.md).
# qemu/run now writes each test image's first block before qemu opens it. A second disk, not
# handed over, stays byte-identical.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

for f in vmlinuz initramfs.img; do
	[ -s "$FSM_ROOT/out/kernels/6.12/$f" ] || skip_all "out/kernels/6.12/$f is missing (make kernels)"
done
KERNEL=6.12 INITRD=$FSM_ROOT/out/kernels/6.12/initramfs.img

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-boot
rm -rf "$RUN" && mkdir -p "$RUN/disks"
cat >"$RUN.ini" <<'EOF'
[global]
name = small-1k
repeat = 2
timeout = 2m
reference = no
disk_speed = off

[array disk]
level = none

[fs ext4]
type = ext4
mount = defaults
mkfs = -b 1024

[workload seq]
type = seqwrite
size = 32m
bs = 1m
EOF
# fsmtest0 made by qemu/run (--reuse makes a missing disk anew, fallocated); fsmtest1 not
# handed over, random bytes at its start
head -c 64M /dev/urandom >"$RUN/disks/fsmtest1.img"
truncate -s 256M "$RUN/disks/fsmtest1.img"
snapshot "$RUN/disks/fsmtest1.img"
boot boot --reuse --keep --no-select --disks 2 --size 256M --timeout 300 --plan "$RUN.ini" \
	--append "fsmatrix.disks=serial:fsmtest0"
expect_status "the run completes (exit 0)" 0
check "the test disks are opened as by default: cache=none, aio=native" \
	grep -q 'id=drv-fsmtest0,cache=none,aio=native' "$RUN/qemu.cmdline"
expect_record "the boot is 6.12's" 'select(.type == "header") | .kernel.release | startswith("6.12.")'
expect_record "ext4 was made with 1 KiB blocks" \
	'select(.type == "cell") | .fs_geometry | test("Block size: +1024\n")'
all_ok() { # the failure reason names each status and the first error
	local got
	got=$(records_console | jq -r -s '[.[] | select(.type == "warmup" or .type == "cell")] |
		(map("\(.type):\(.status)") | join(",")) + " " + (map(.error // empty) | first // "")')
	[ "$got" = "warmup:ok,cell:ok,cell:ok " ] || { echo "$got"; return 1; }
}
check "the warm-up and both cells are ok" all_ok
expect_no_console "no I/O error on the console" 'I/O error|failed to convert unwritten extents'
sha256_unchanged "the disk not handed over is byte-identical" "$RUN/disks/fsmtest1.img"
rm -rf "$RUN/disks"
