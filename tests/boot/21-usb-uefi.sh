# 21-usb-uefi: out/fsmatrix-usb.img boots through OVMF without Secure Boot (EFI/BOOT/BOOTX64.EFI,
# shim, starts Debian's signed GRUB, which reads EFI/BOOT/grub.cfg, the same entries as
# syslinux.cfg: boot/42 boots it with Secure Boot), runs a one-cell plan written onto a
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
expect_console_text "GRUB booted grub.cfg's run entry" 'Booting .fsmatrix: run'
expect_console "the kernel booted through EFI" '\] efi: EFI v'
expect_stick_smoke_run
