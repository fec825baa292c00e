# 46-usb-resume-uefi: 34's resume through GRUB, the stick's UEFI path: a run booted by
# Debian's GRUB (OVMF, no Secure Boot) resumes after a watchdog reboot although GRUB's
# default is "dry". The copy of the stick keeps the shipped GRUB menu (set default=dry, a
# 3 s timeout here) with the run's parameters on its "run" entry; the first boot's "run" is
# chosen in GRUB's menu on the serial line (one arrow down, Enter), as a person would.
# fsmatrix.debug_hang=2 hangs cell 2 and the watchdog (softdog, 20 s) reboots the machine;
# nobody types then, so GRUB's default boots: /init made it the run's own command line in
# EFI/BOOT/grub.cfg before the first cell, and the second boot resumes the run to its end.
# Then the menu is as shipped.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
mkdir -p "$FSM_TEST_RUNS"
stick=$FSM_TEST_RUNS/46-usb-resume-uefi.img
params='fsmatrix.disks=serial:fsmtest* fsmatrix.watchdog=20 fsmatrix.debug_hang=2'
copy_stick() {
	local p
	cp --sparse=always "$USB_IMG" "$stick" && p=$(stick_part "$stick") &&
		mcopy -o -i "$p" "$FSM_ROOT/tests/plans/watchdog.ini" ::fsmatrix/plan.ini &&
		mcopy -o -n -i "$p" ::EFI/BOOT/grub.cfg "$stick.cfg" &&
		sed -i -e 's/^set timeout=.*/set timeout=3/' \
			-e "/--id run {\$/,/^}/ s|^\\(\tlinux .*\\)|\\1 $params|" "$stick.cfg" &&
		grep -q '^set default=dry$' "$stick.cfg" && grep -qF " $params" "$stick.cfg" &&
		mcopy -o -i "$p" "$stick.cfg" ::EFI/BOOT/grub.cfg
}
check "a copy of the stick: set default=dry, the run's parameters on its run entry" copy_stick
menu_before=$(stick_file "$stick" EFI/BOOT/grub.cfg | sha256sum)

# "run" chosen in GRUB's menu, once: what the serial line carries for the first boot only.
RUN=$FSM_TEST_RUNS/46-usb-resume-uefi-main
rm -rf "$RUN" "$RUN.fifo" && mkfifo "$RUN.fifo"
"$FSM_ROOT/qemu/run" --run-dir "$RUN" --kernel "$KERNEL" --initrd "$INITRD" --mem 1024M \
	--boot-disk "$stick" --firmware uefi --disks 1 --size 256M --timeout 600 --reboot \
	<"$RUN.fifo" >"$RUN.out" 2>&1 &
qemu_run=$!
exec 9>"$RUN.fifo"
for _ in $(seq 1200); do
	sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$RUN/console.log" 2>/dev/null | grep -aq 'fsmatrix: shell -' && break
	sleep 0.1
done
printf '\033[B' >&9
sleep 0.5
printf '\r' >&9
wait "$qemu_run"
BOOT_STATUS=$?
exec 9>&-
rm -f "$RUN.fifo"
# (GRUB says "Booting in blind mode" for an entry chosen by keys on the serial line)
check "the first boot was the run entry chosen in GRUB's menu: its parameters, no fsmatrix.dry=1" \
	bash -c 'grep "Kernel command line:" "$1" | sed -n 1p | grep -F "fsmatrix.debug_hang=2" | grep -vq "fsmatrix.dry=1"' _ "$RUN/console.log"
expect_console "the first boot marked GRUB's menu" 'fsmatrix: boot menu: a reboot now resumes run .*EFI/BOOT/grub.cfg'
expect_console_text "the second boot was GRUB's default, the resume entry" 'Booting .fsmatrix: resume run '
expect_resumed_by_menu EFI/BOOT/grub.cfg
