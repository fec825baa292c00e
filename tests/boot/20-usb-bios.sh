# 20-usb-bios: out/fsmatrix-usb.img boots through SeaBIOS (syslinux from the stick's MBR and
# FAT32 partition), runs a one-cell plan written onto a copy of the stick with mtools on the
# test disk its boot menu names, and leaves the records on the stick, read back with mtools.
# The stick is a USB disk (qemu usb-storage, see media.sh); the shipped image must not change.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
snapshot "$USB_IMG"
mkdir -p "$FSM_TEST_RUNS"
stick=$FSM_TEST_RUNS/20-usb-bios.img
check "a copy of the stick holds the smoke plan and boots 'run' on serial:fsmtest*" \
	usb_test_copy "$stick" "$(dirname "$0")/smoke.ini" 'fsmatrix.disks=serial:fsmtest*'

boot main --boot-disk "$stick" --firmware bios --disks 1 --size 256M --timeout 400
expect_status "the run completes: trailer printed, powered off (exit 0)" 0
expect_console "SeaBIOS started syslinux from the stick" 'SYSLINUX 6\.'
expect_console "syslinux loaded the kernel and initramfs from the stick" 'Loading /initramfs\.img'
expect_no_console "booted without EFI" '\] efi: EFI v'
expect_stick_smoke_run
