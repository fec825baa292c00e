# 48-kernel-set: `make kernels` builds a second kernel set (Debian's signed 6.12, its own
# module closure and initramfs in out/kernels/6.12/), and `qemu/run --kernel 6.12` boots it:
# the header names the 6.12 release, the modules /init loads are that kernel's, and a cell of
# smoke.ini runs to ok on it, as on the pinned 6.1, its record carrying axes.kernel = 6.12.
# `--kernels "6.1 6.12"` puts both sets on the results partition (fsmatrix/kernels/NAME/).
# A plan with kernels = is refused before any cell until /init switches kernels.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

SET=$FSM_ROOT/out/kernels/6.12
[ -s "$SET/vmlinuz" ] || skip_all "$SET/vmlinuz is missing (make kernels)"
[ -s "$SET/initramfs.img" ] || skip_all "$SET/initramfs.img is missing (make kernels)"

# The set by its name: qemu/run finds out/kernels/6.12/vmlinuz itself. A 1 GiB disk (ext4
# with 4 KiB blocks): on 256 MiB (1 KiB blocks) this 6.12 once failed the cell with write
# I/O errors under qemu's cache=none, aio=native, where 6.1 never did (docs/image.md).
KERNEL=6.12 INITRD=$SET/initramfs.img
boot k612 --disks 1 --size 1G --timeout 400 --plan "$(dirname "$0")/smoke.ini" --kernels "6.1 6.12"
expect_status "the run on the 6.12 set completes (exit 0)" 0
check "qemu booted out/kernels/6.12/vmlinuz" grep -q "out/kernels/6.12/vmlinuz" "$RUN/qemu.cmdline"
expect_record "the header names the 6.12 kernel" \
	'select(.type == "header") | .kernel.release | startswith("6.12.")'
expect_record "the smoke cell ran to ok on 6.12" \
	'select(.type == "cell") | .status == "ok" and .result.mbps > 0'
check "qemu/run named the set on the command line" grep -q "fsmatrix.kernel=6.12" "$RUN/qemu.cmdline"
expect_record "the cell record carries the set as an axis" \
	'select(.type == "cell") | .axes.kernel == "6.12"'
expect_no_console "no module failed to load" 'unable to load module'
# --kernels: both sets on the results partition, byte for byte, and not copied back.
check "the results partition carries both sets in fsmatrix/kernels/" bash -c '
	for k in 6.1 6.12; do for f in vmlinuz initramfs.img; do
		mcopy -n -i "$1/results.img@@1048576" "::fsmatrix/kernels/$k/$f" - 2>/dev/null |
			cmp -s - "$2/out/kernels/$k/$f" || { echo "fsmatrix/kernels/$k/$f is not out/kernels/$k/$f"; exit 1; }
	done; done' _ "$RUN" "$FSM_ROOT"
check "the sets are not copied back into the run directory" test ! -e "$RUN/kernels"

# A plan naming kernels = stops the boot before any cell, the test disk untouched: this
# /init does not switch kernels yet, and one kernel's figures are no comparison.
boot refuse --disks 1 --size 64M --keep --timeout 300 --plan "$FSM_ROOT/tests/plans/kernels.ini"
expect_status "kernels = : the guest stops without a trailer (exit 2)" 2
expect_console "kernels = : the fatal line says why" \
	'^fsmatrix: fatal: /results/fsmatrix/plan\.ini: kernels = 6\.1, \.\.\.: this /init runs a plan under the kernel it booted only'
zeros() {
	cmp -s "$RUN/disks/fsmtest0.img" <(head -c "$(stat -c %s "$RUN/disks/fsmtest0.img")" /dev/zero) ||
		{ echo "fsmtest0.img is not all zeros"; return 1; }
}
check "kernels = : the test disk was not written" zeros
rm -rf "$RUN/disks"
