# 20-usb: out/fsmatrix-usb.img boots through each of its two firmware paths, as USB storage
# (qemu usb-storage, see media.sh): SeaBIOS (syslinux from the stick's MBR and FAT32
# partition) and OVMF without Secure Boot (EFI/BOOT/BOOTX64.EFI, shim, Debian's signed GRUB
# reading EFI/BOOT/grub.cfg, the same entries as syslinux.cfg; boot/42 boots it with Secure
# Boot). Each boot runs a one-cell plan written onto its own copy of the stick with mtools,
# on the test disk its boot menu names, and leaves the records on the stick, read back with
# mtools. OVMF adds ~10-30 s under TCG; the shipped image must not change.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
snapshot "$USB_IMG"
mkdir -p "$FSM_TEST_RUNS"

# What each firmware's boot shows on the console before /init: its boot loader, and whether
# the kernel came up through EFI.
firmware_bios() {
	expect_console "bios: SeaBIOS started syslinux from the stick" 'SYSLINUX 6\.'
	expect_console "bios: syslinux loaded the kernel and initramfs from the stick" 'Loading /initramfs\.img'
	expect_no_console "bios: booted without EFI" '\] efi: EFI v'
}
firmware_uefi() {
	expect_console_text "uefi: OVMF started EFI/BOOT/BOOTX64.EFI from the stick" 'BdsDxe: starting Boot[0-9A-F]+'
	expect_console_text "uefi: GRUB booted grub.cfg's run entry" 'Booting .fsmatrix: run'
	expect_console "uefi: the kernel booted through EFI" '\] efi: EFI v'
}

for fw in bios uefi; do
	stick=$FSM_TEST_RUNS/20-usb-$fw.img
	check "$fw: a copy of the stick holds the smoke plan and boots 'run' on serial:fsmtest*" \
		usb_test_copy "$stick" "$(dirname "$0")/smoke.ini" 'fsmatrix.disks=serial:fsmtest*'
	boot "$fw" --boot-disk "$stick" --firmware "$fw" --disks 1 --size 256M --timeout 400
	expect_status "$fw: the run completes: trailer printed, powered off (exit 0)" 0
	"firmware_$fw"
	expect_stick_smoke_run "$fw: "
done
