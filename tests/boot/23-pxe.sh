# 23-pxe: out/pxe/ network-boots through qemu's user-mode network and built-in TFTP server:
# the virtio NIC's iPXE ROM (Debian's ipxe-qemu) loads pxelinux.0, which reads
# pxelinux.cfg/default and fetches the kernel and initramfs. A copy of the tree whose default
# entry names fsmtest*, the one-cell plan on a separate FSMRESULTS disk. Then the shipped
# tree again, with boot.ipxe as the boot file, which iPXE runs as a script: a dry run that
# takes no disk.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$PXE_DIR/pxelinux.0" ] || skip_all "$PXE_DIR is missing (make pxe)"
mkdir -p "$FSM_TEST_RUNS"
tftp=$FSM_TEST_RUNS/23-pxe-tftp
check "a copy of out/pxe boots 'run' on serial:fsmtest*" \
	pxe_test_copy "$tftp" 'fsmatrix.disks=serial:fsmtest*'

boot main --pxe "$tftp" --disks 1 --size 256M --plan "$(dirname "$0")/smoke.ini" --timeout 400
expect_status "the run completes: trailer printed, powered off (exit 0)" 0
expect_console "pxelinux.0 came over TFTP and started" 'PXELINUX 6\.'
expect_console "pxelinux loaded the kernel and initramfs over TFTP" 'Loading initramfs\.img'
expect_no_console "no kernel panic or oops" 'Kernel panic|Oops:|BUG:|Call Trace:'
expect_record "header: the kernel command line is pxelinux.cfg's run entry" \
	'select(.type == "header") | .kernel.cmdline | test("BOOT_IMAGE=vmlinuz .*fsmatrix\\.disks=serial:fsmtest\\*")'
expect_record "header: the FSMRESULTS disk is the results disk, not a boot medium" \
	'select(.type == "header") | [.disks[] | select(.results)] | length == 1 and .[0].boot == false'
expect_record "header: the plan came from the results disk" \
	'select(.type == "header") | .plan.name == "smoke" and .plan.source == "results"'
expect_record "the cell disk/ext4/defaults/seq ran ok" \
	'select(.type == "cell") | (.cell | test("^disk/ext4/")) and .status == "ok"'
expect_record "a trailer record closes the run" '.type == "trailer"'
expect_result_record "the results disk holds the cell" 'select(.type == "cell") | .status == "ok"'
expect_result_record "the results disk holds the trailer" '.type == "trailer"'

boot ipxe --pxe "$PXE_DIR" --pxe-file boot.ipxe --disks 1 --size 64M --plan "$(dirname "$0")/smoke.ini" --timeout 300
expect_status "boot.ipxe: the run completes (exit 0)" 0
expect_record "boot.ipxe: its command line, a dry run naming no disk" \
	'select(.type == "header") | (.kernel.cmdline | test("initrd=initramfs\\.img .*fsmatrix\\.dry=1") and (test("fsmatrix\\.disks=") | not))'
expect_record "boot.ipxe: the test disk was seen and not taken" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest0") | .verdict == "not-named"'
expect_record "boot.ipxe: the trailer: no disk taken" 'select(.type == "trailer") | .disks_taken == 0'
