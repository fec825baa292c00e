# 34-usb-resume: a run from the stick resumes after a watchdog reboot, although the stick's
# default is "dry", through each of its boot loaders: syslinux (SeaBIOS) and Debian's GRUB
# (OVMF, no Secure Boot). Each firmware's copy of the stick keeps its shipped menu (DEFAULT
# dry, or set default=dry, after a 3 s timeout here) with the run's parameters on its "run"
# entry; the first boot's "run" is chosen on the serial line as a person would: typed at
# syslinux's prompt, or one entry down and Enter in GRUB's menu. fsmatrix.debug_hang=2 hangs
# cell 2 (boot/16's hang) and the watchdog (softdog, 20 s) reboots the machine; nobody types
# then, so the menu's default boots: /init made it the run's own command line before the
# first cell, and the second boot resumes the run to its end. Then the menu is as shipped.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
mkdir -p "$FSM_TEST_RUNS"
params='fsmatrix.disks=serial:fsmtest* fsmatrix.watchdog=20 fsmatrix.debug_hang=2'

# Per boot loader: its menu on the stick, the edit that puts the run's parameters on its run
# entry (keeping its default "dry"), what shows once it waits for a key, and the keys that
# choose "run" (typed earlier, the firmware eats the first key).
menu_bios() { echo syslinux.cfg; }
edit_bios() {
	sed -i -e 's/^TIMEOUT .*/TIMEOUT 30/' \
		-e "/^LABEL run\$/,/APPEND/ s|^\\(  APPEND .*\\)|\\1 $params|" "$1" &&
		grep -q '^DEFAULT dry$' "$1"
}
waits_bios() { grep -aq 'boot: ' "$RUN/console.log" 2>/dev/null; }
choose_bios() { printf 'run\r' >&9; }
resumed_bios() { :; }   # syslinux names no entry it boots

menu_uefi() { echo EFI/BOOT/grub.cfg; }
edit_uefi() {
	sed -i -e 's/^set timeout=.*/set timeout=3/' \
		-e "/--id run {\$/,/^}/ s|^\\(\tlinux .*\\)|\\1 $params|" "$1" &&
		grep -q '^set default=dry$' "$1" && grep -qF " $params" "$1"
}
# GRUB's menu is drawn with terminal escapes; OVMF takes longer to get there
waits_uefi() { sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$RUN/console.log" 2>/dev/null | grep -aq 'fsmatrix: shell -'; }
# Ctrl-N, GRUB's one-byte "next entry": GRUB reads the line both itself and through OVMF's
# console, and an arrow's three bytes could be split between the two
choose_uefi() { printf '\016' >&9 && sleep 0.5 && printf '\r' >&9; }
# GRUB says "Booting in blind mode" for an entry chosen by keys on the serial line, and names
# the one it boots by default
resumed_uefi() {
	expect_console_text "uefi: the second boot was GRUB's default, the resume entry" 'Booting .fsmatrix: resume run '
}

# A copy of the stick for firmware FW: the watchdog plan, MENU edited as FW's edit says.
copy_stick() { # STICK FW MENU
	local p
	cp --sparse=always "$USB_IMG" "$1" && p=$(stick_part "$1") &&
		mcopy -o -i "$p" "$FSM_ROOT/tests/plans/watchdog.ini" ::fsmatrix/plan.ini &&
		mcopy -o -n -i "$p" "::$3" "$1.cfg" &&
		"edit_$2" "$1.cfg" &&
		mcopy -o -i "$p" "$1.cfg" "::$3"
}

for fw in bios uefi; do
	menu=$("menu_$fw")
	stick=$FSM_TEST_RUNS/34-usb-resume-$fw.img
	check "$fw: a copy of the stick: $menu's default dry, the run's parameters on its run entry" \
		copy_stick "$stick" "$fw" "$menu"
	menu_before=$(stick_file "$stick" "$menu" | sha256sum)

	# "run" chosen once: what the serial line carries for the first boot only. qemu reads
	# the line from a FIFO.
	RUN=$FSM_TEST_RUNS/34-usb-resume-$fw
	rm -rf "$RUN" "$RUN.fifo" && mkfifo "$RUN.fifo"
	"$FSM_ROOT/qemu/run" --run-dir "$RUN" --kernel "$KERNEL" --initrd "$INITRD" --mem 1024M \
		--boot-disk "$stick" --firmware "$fw" --disks 1 --size 256M --timeout 600 --reboot \
		<"$RUN.fifo" >"$RUN.out" 2>&1 &
	qemu_run=$!
	exec 9>"$RUN.fifo"
	# The firmware's way to the menu takes as long as the host lets it (OVMF under TCG beside
	# another guest: minutes), so wait while qemu runs, not a fixed time
	started=$SECONDS menu_shown=
	while kill -0 "$qemu_run" 2>/dev/null; do
		"waits_$fw" && menu_shown=$((SECONDS - started)) && break
		sleep 0.1
	done
	"choose_$fw"
	echo "# $fw: the menu waited for a key after ${menu_shown:-(never)} s"
	wait "$qemu_run"
	BOOT_STATUS=$?
	exec 9>&-
	rm -f "$RUN.fifo"
	check "$fw: the first boot was the run entry chosen in the menu: its parameters, no fsmatrix.dry=1" \
		bash -c 'grep "Kernel command line:" "$1" | sed -n 1p | grep -F "fsmatrix.debug_hang=2" | grep -vq "fsmatrix.dry=1"' _ "$RUN/console.log"
	expect_console "$fw: the first boot marked $menu" \
		"fsmatrix: boot menu: a reboot now resumes run .* the default of $menu, "
	expect_resumed_by_menu "$menu" "$fw: "
	"resumed_$fw"
done
