# 34-usb-resume: a run from the stick resumes after a watchdog reboot, although the stick's
# default is "dry". The copy of the stick keeps the shipped menu (DEFAULT dry, after a 3 s
# timeout here) with the run's parameters on its "run" entry; the first boot's "run" is typed
# at syslinux's prompt on the serial line, as a person would. fsmatrix.debug_hang=2 hangs
# cell 2 (boot/16's hang) and the watchdog (softdog, 20 s) reboots the machine; nobody types
# then, so the menu's default boots: /init made it the run's own command line before the
# first cell, and the second boot resumes the run to its end. Then the menu is as shipped.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
mkdir -p "$FSM_TEST_RUNS"
stick=$FSM_TEST_RUNS/34-usb-resume.img
params='fsmatrix.disks=serial:fsmtest* fsmatrix.watchdog=20 fsmatrix.debug_hang=2'
copy_stick() {
	local p
	cp --sparse=always "$USB_IMG" "$stick" && p=$(stick_part "$stick") &&
		mcopy -o -i "$p" "$FSM_ROOT/tests/plans/watchdog.ini" ::fsmatrix/plan.ini &&
		mcopy -o -n -i "$p" ::syslinux.cfg "$stick.cfg" &&
		sed -i -e 's/^TIMEOUT .*/TIMEOUT 30/' \
			-e "/^LABEL run\$/,/APPEND/ s|^\\(  APPEND .*\\)|\\1 $params|" "$stick.cfg" &&
		grep -q '^DEFAULT dry$' "$stick.cfg" &&
		mcopy -o -i "$p" "$stick.cfg" ::syslinux.cfg
}
check "a copy of the stick: DEFAULT dry, the run's parameters on its run entry" copy_stick
menu_before=$(stick_file "$stick" syslinux.cfg | sha256sum)

# "run" typed at the prompt, once: what the serial line carries for the first boot only.
# qemu reads the line from a FIFO; "run" goes in once syslinux's prompt is on the console
# (typed earlier, the firmware eats the first key).
RUN=$FSM_TEST_RUNS/34-usb-resume-main
rm -rf "$RUN" "$RUN.fifo" && mkdir -p "$FSM_TEST_RUNS" && mkfifo "$RUN.fifo"
"$FSM_ROOT/qemu/run" --run-dir "$RUN" --kernel "$KERNEL" --initrd "$INITRD" --mem 1024M \
	--boot-disk "$stick" --firmware bios --disks 1 --size 256M --timeout 600 --reboot \
	<"$RUN.fifo" >"$RUN.out" 2>&1 &
qemu_run=$!
exec 9>"$RUN.fifo"
for _ in $(seq 600); do
	grep -aq 'boot: ' "$RUN/console.log" 2>/dev/null && break
	sleep 0.1
done
printf 'run\r' >&9
wait "$qemu_run"
BOOT_STATUS=$?
exec 9>&-
rm -f "$RUN.fifo"
expect_console "the first boot marked the menu" 'fsmatrix: boot menu: a reboot now resumes run '
expect_resumed_by_menu syslinux.cfg
