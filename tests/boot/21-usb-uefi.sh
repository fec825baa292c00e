# 21-usb-uefi: out/fsmatrix-usb.img boots through OVMF (EFI/BOOT/BOOTX64.EFI, which is
# syslinux.efi reading the same syslinux.cfg as BIOS), runs a one-cell plan written onto a
# copy of the stick with mtools on the test disk its boot menu names, and leaves the records
# on the stick, read back with mtools. The stick is a USB disk (qemu usb-storage, see
# media.sh). OVMF adds ~10-30 s under TCG; the shipped image must not change.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
snapshot "$USB_IMG"
mkdir -p "$FSM_TEST_RUNS"
stick=$FSM_TEST_RUNS/21-usb-uefi.img
check "a copy of the stick holds the smoke plan and boots 'run' on serial:fsmtest*" \
	usb_test_copy "$stick" "$(dirname "$0")/smoke.ini" 'fsmatrix.disks=serial:fsmtest*'

boot main --boot-disk "$stick" --firmware uefi --disks 1 --size 256M --timeout 400
expect_status "the run completes: trailer printed, powered off (exit 0)" 0
expect_console_text "OVMF started EFI/BOOT/BOOTX64.EFI from the stick" 'BdsDxe: starting Boot[0-9A-F]+'
expect_console_text "syslinux loaded the kernel and initramfs from the stick" 'Loading /initramfs\.cpio\.gz'
expect_console "the kernel booted through EFI" '\] efi: EFI v'
expect_no_console "no kernel panic or oops" 'Kernel panic|Oops:|BUG:|Call Trace:'
expect_record "header: the kernel command line is syslinux.cfg's run entry" \
	'select(.type == "header") | .kernel.cmdline | test("BOOT_IMAGE=/vmlinuz .*console=ttyS0,115200 fsmatrix\\.disks=serial:fsmtest\\*")'
expect_record "header: the stick is a USB disk" \
	'select(.type == "header") | .disks[] | select(.results) | .transport == "usb"'
expect_record "header: the stick is the results disk and the boot medium, never taken" \
	'select(.type == "header") | [.disks[] | select(.results)] | length == 1 and .[0].boot == true and .[0].verdict == "results-disk"'
expect_record "header: fsmtest0 is taken" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest0") | .verdict == "taken"'
expect_record "header: the plan is smoke.ini, read from the stick's fsmatrix/plan.ini" \
	'select(.type == "header") | .plan.name == "smoke" and .plan.source == "results"'
expect_record "the cell disk/ext4/defaults/seq ran ok" \
	'select(.type == "cell") | (.cell | test("^disk/ext4/")) and .status == "ok"'
expect_record "a trailer record closes the run" '.type == "trailer"'
# The run's copy of the stick, read with mtools as a user would read it on a laptop.
expect_stick_record "on the stick: the header" "$RUN/results.img" '.type == "header"'
expect_stick_record "on the stick: the cell, ok" "$RUN/results.img" 'select(.type == "cell") | .status == "ok"'
expect_stick_record "on the stick: the trailer" "$RUN/results.img" '.type == "trailer"'
check "on the stick: the console log beside the records" \
	bash -c "mdir -b -i '$(stick_part "$RUN/results.img")' ::fsmatrix/results | grep -q 'console\\.log\$'"
sha256_unchanged "the shipped out/fsmatrix-usb.img is unchanged" "$USB_IMG"
