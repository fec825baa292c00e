# 42-secure-boot: the stick under OVMF with Secure Boot enforced and Microsoft's keys
# enrolled (qemu/run --firmware uefi-secboot: OVMF_CODE_4M.secboot.fd, a fresh copy of
# OVMF_VARS_4M.ms.fd, q35 with SMM). Shim (signed by Microsoft) verifies Debian's GRUB,
# GRUB has shim verify Debian's kernel, the kernel locks down (integrity) and loads only
# signed modules: every module the boot and the plan need must load, as Debian signed them,
# and the smoke plan's one cell runs ok on one small disk.
# The negative twin boots a copy of that stick whose initramfs holds loop.ko without its
# signature (cut off as MODULES_REWRITE=qemu does): the same chain must refuse that module,
# so /init cannot mount its module image, finds no driver for any disk, and no cell runs.
# A third boot takes PXE's signed UEFI path (shim and grubnetx64.efi over TFTP) to a dry run.
# Small: one 256 MiB disk, one cell.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
for f in /usr/share/OVMF/OVMF_CODE_4M.secboot.fd /usr/share/OVMF/OVMF_VARS_4M.ms.fd; do
	[ -r "$f" ] || skip_all "$f is missing (make deps installs ovmf)"
done
snapshot "$USB_IMG"
mkdir -p "$FSM_TEST_RUNS"
stick=$FSM_TEST_RUNS/42-secure-boot.img
check "a copy of the stick holds the smoke plan and boots 'run' on serial:fsmtest*" \
	usb_test_copy "$stick" "$(dirname "$0")/smoke.ini" 'fsmatrix.disks=serial:fsmtest*'

boot signed --boot-disk "$stick" --firmware uefi-secboot --disks 1 --size 256M --timeout 900
expect_status "the run completes: trailer printed, powered off (exit 0)" 0
expect_console_text "GRUB read the stick's EFI/BOOT/grub.cfg (its menu on the serial line)" \
	"fsmatrix: run - run the plan"
expect_console "the kernel's EFI stub: Secure Boot is on" 'UEFI Secure Boot is enabled|Secure boot enabled'
expect_console "the kernel locked itself down for Secure Boot" 'Kernel is locked down from EFI Secure Boot'
expect_no_console "no module refused" 'Loading of unsigned module is rejected|Key was rejected|Required key not available'
expect_record "header: secure_boot enabled, lockdown integrity, modules pristine" \
	'select(.type == "header") | .kernel.secure_boot == "enabled" and .kernel.lockdown == "integrity" and .kernel.modules == "pristine"'
expect_record "header: the kernel is not tainted by an unsigned module (no E, 8192)" \
	'select(.type == "header") | (.kernel.tainted / 8192 | floor) % 2 == 0'
expect_record "every module the boot and the plan asked for loaded (none in error)" \
	'select(.type == "event" and .event == "modules") | [.modules[]? // empty] | length > 0 and all(.status != "error")'
expect_record "the smoke plan's modules loaded: ext4 among them" \
	'select(.type == "event" and .event == "modules") | [.modules[]? | select(.name == "ext4" and .status == "ok")] | length == 1'
expect_stick_smoke_run

# The negative twin: loop.ko unsigned, in a copy of the stick's initramfs.
bad=$FSM_TEST_RUNS/42-secure-boot-unsigned.img
unsigned_copy() {
	local p d
	d=$(mktemp -d) || return 1
	cp --sparse=always "$stick" "$bad" && p=$(stick_part "$bad") &&
		mcopy -o -n -i "$p" ::initramfs.img "$d/initramfs.img" &&
		mkdir "$d/root" &&
		(cd "$d/root" && "$FSM_ROOT/recipes/compress" -d ../initramfs.img | cpio -id --quiet) &&
		ko=$d/root/lib/modules-boot/loop.ko &&
		[ "$(tail -c 28 "$ko")" = '~Module signature appended~' ] &&
		len=$(tail -c 32 "$ko" | head -c 4 | od -An -tu1 | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }') &&
		truncate -s $(($(stat -c %s "$ko") - 28 - 12 - len)) "$ko" &&
		! tail -c 28 "$ko" | grep -qa 'Module signature appended' &&
		(cd "$d/root" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --quiet | gzip -1 > ../unsigned.img) &&
		mcopy -o -i "$p" "$d/unsigned.img" ::initramfs.img
	local rc=$?
	rm -rf "$d"
	return $rc
}
check "a copy of that stick whose initramfs holds loop.ko without its signature" unsigned_copy

boot unsigned --boot-disk "$bad" --firmware uefi-secboot --disks 1 --size 256M --timeout 600
expect_console "the kernel booted under Secure Boot again" 'Kernel is locked down from EFI Secure Boot'
expect_console "the kernel refused the unsigned loop.ko" 'Loading of unsigned module is rejected'
expect_record "the modules event: loop refused, Key was rejected by service" \
	'select(.type == "event" and .event == "modules") | .modules[]? | .name == "loop" and .status == "error" and (.error | test("Key was rejected"))'
expect_console "/init says it cannot read the image's modules" 'unable to load /lib/modules-boot/loop.ko: .*modules cannot be read'
expect_no_console "no cell ran ok" '"type":"cell".*"status":"ok"'
expect_no_console "no kernel panic or oops" 'Kernel panic|Oops:|BUG:|Call Trace:'
sha256_unchanged "the shipped out/fsmatrix-usb.img is unchanged" "$USB_IMG"

# kexec under lockdown: a stick whose plan runs one cell under two kernel sets, Debian's
# signed 6.1 and a copy of it with one byte changed (its signature no longer covers it). The
# stick's own kernel switches to 6.1 by kexec_file_load, which lockdown lets through for a
# kernel signed by a trusted key, and the cell runs there; the tampered set is refused, its
# cell an error saying why, and the run ends.
lock=$FSM_TEST_RUNS/42-secure-boot-kexec.img
lockplan=$FSM_TEST_RUNS/42-secure-boot-kexec.ini
sed '/^\[global\]/a kernels = 6.1, tampered\nwarmup = 0' "$(dirname "$0")/smoke.ini" >"$lockplan"
kexec_copy() {
	local p d
	d=$(mktemp -d) || return 1
	usb_test_copy "$lock" "$lockplan" 'fsmatrix.disks=serial:fsmtest*' && p=$(stick_part "$lock") &&
		cp "$FSM_ROOT/out/kernels/6.1/vmlinuz" "$d/vmlinuz" &&
		printf '\x5a' | dd of="$d/vmlinuz" bs=1 seek=$((4 << 20)) conv=notrunc status=none &&
		! cmp -s "$d/vmlinuz" "$FSM_ROOT/out/kernels/6.1/vmlinuz" &&
		mmd -i "$p" ::fsmatrix/kernels ::fsmatrix/kernels/6.1 ::fsmatrix/kernels/tampered &&
		mcopy -i "$p" "$FSM_ROOT/out/kernels/6.1/vmlinuz" "$FSM_ROOT/out/kernels/6.1/initramfs.img" \
			::fsmatrix/kernels/6.1/ &&
		mcopy -i "$p" "$d/vmlinuz" "$FSM_ROOT/out/kernels/6.1/initramfs.img" ::fsmatrix/kernels/tampered/
	local rc=$?
	rm -rf "$d"
	return $rc
}
if [ -s "$FSM_ROOT/out/kernels/6.1/vmlinuz" ]; then
	check "a copy of the stick with kernels = 6.1, tampered and both sets on it" kexec_copy
	boot kexec --boot-disk "$lock" --firmware uefi-secboot --disks 1 --size 256M --timeout 900
	expect_status "kexec: the run completes (exit 0)" 0
	expect_console "kexec: the stick's kernel switched to the signed 6.1" \
		'^fsmatrix: switching to kernel 6\.1 for cell 1 \(kexec\)'
	expect_record "kexec: the cell ran ok under 6.1, locked down (its boot's header: set 6.1, integrity)" \
		'select(.type == "cell" and .axes.kernel == "6.1") | .status == "ok"'
	check "kexec: the boot after the switch was locked down too and named 6.1" test "$(records_console | jq -r 'select(.type == "header") | "\(.kernel.set):\(.kernel.lockdown)"' | tr '\n' ' ')" = "null:integrity 6.1:integrity "
	expect_record "kexec: the tampered kernel refused under lockdown, its cell an error saying so" \
		'select(.type == "cell" and .axes.kernel == "tampered") | .status == "error" and (.error | test("unable to switch to kernel tampered: kexec_file_load"))'
else
	skip "kexec under lockdown" "out/kernels/6.1 is missing (make kernels)"
fi

# PXE's signed UEFI path: OVMF fetches shim (bootnetx64.efi) over qemu's TFTP, shim fetches
# grubx64.efi (Debian's signed grubnetx64.efi) beside it, which reads grub/grub.cfg and boots
# its default, the dry run, with Secure Boot enforced as above.
if [ -d "$PXE_DIR" ]; then
	boot pxe --pxe "$PXE_DIR" --pxe-file bootnetx64.efi --firmware uefi-secboot --disks 1 --size 256M --timeout 600
	expect_status "PXE: the dry run completes (exit 0)" 0
	expect_console_text "PXE: GRUB booted grub/grub.cfg's default entry, dry" 'Booting .fsmatrix: dry'
	expect_console "PXE: the kernel locked itself down for Secure Boot" 'Kernel is locked down from EFI Secure Boot'
	expect_record "PXE: header: a dry run, secure_boot enabled, lockdown integrity, modules pristine" \
		'select(.type == "header") | .dry and .kernel.secure_boot == "enabled" and .kernel.lockdown == "integrity" and .kernel.modules == "pristine"'
	expect_record "PXE: no disk taken (the dry entry names none)" \
		'select(.type == "header") | [.disks[] | select(.verdict == "taken")] | length == 0'
else
	skip "PXE: the signed UEFI path" "$PXE_DIR is missing (make pxe)"
fi
