# 22-usb-safe: the stick exactly as shipped (its default entry after its own 10 s timeout),
# booted next to a disk holding an ext4 filesystem with a file and a blank disk. It names no
# disks: it lists both, takes neither, runs nothing, and neither disk changes by one byte.
# The shipped boot configs (stick and PXE) name no disk; the shell entry runs nothing.
# The stick is a virtio disk here, so that the virtio path of --boot-disk is booted too
# (20 and 21 boot it as USB).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
command -v mkfs.ext4 >/dev/null || skip_all "mkfs.ext4 is missing on the host (e2fsprogs)"

names_no_disk() { # COMMAND...: no kernel command line in its output names a disk
	local hits
	hits=$("$@" | tr -d '\r' | grep -iE '^[[:space:]]*(append|set params|kernel|linux) .*fsmatrix\.(disks|wipe)=')
	[ -z "$hits" ] || { echo "it names disks: $hits"; return 1; }
}
check "the stick's syslinux.cfg names no disk" names_no_disk stick_file "$USB_IMG" syslinux.cfg
check "the stick's EFI/BOOT/grub.cfg names no disk" names_no_disk stick_file "$USB_IMG" EFI/BOOT/grub.cfg
check "the stick's default entry is the dry run" \
	bash -c "$(declare -f stick_file stick_part); stick_file '$USB_IMG' syslinux.cfg | tr -d '\\r' | grep -qx 'DEFAULT dry'"
check "the stick's UEFI default entry is the dry run" \
	bash -c "$(declare -f stick_file stick_part); stick_file '$USB_IMG' EFI/BOOT/grub.cfg | grep -qx 'set default=dry'"
if [ -d "$PXE_DIR" ]; then
	check "out/pxe/pxelinux.cfg/default names no disk" names_no_disk cat "$PXE_DIR/pxelinux.cfg/default"
	check "out/pxe/grub/grub.cfg names no disk" names_no_disk cat "$PXE_DIR/grub/grub.cfg"
	check "out/pxe/boot.ipxe names no disk" names_no_disk cat "$PXE_DIR/boot.ipxe"
fi

# A stick's command line is its own: qemu/run cannot add to it behind the user's back.
refuses_append() {
	local out
	out=$("$FSM_ROOT/qemu/run" --boot-disk "$USB_IMG" --append fsmatrix.disks=blank --dry-run \
		--run-dir "$FSM_TEST_RUNS/22-usb-safe-refused" 2>&1) && { echo "accepted: $out"; return 1; }
	printf '%s\n' "$out" | grep -q 'cannot reach a kernel the firmware loads' || { echo "$out"; return 1; }
}
check "qemu/run refuses --append with --boot-disk" refuses_append
check "qemu/run --boot-disk adds no fsmatrix.disks= to anything" \
	bash -c "! '$FSM_ROOT/qemu/run' --boot-disk '$USB_IMG' --disks 2 --dry-run --run-dir '$FSM_TEST_RUNS/22-usb-safe-refused' 2>&1 | grep fsmatrix.disks"

# The run directory is made here with the disks already in it; qemu/run --reuse uses them.
RUN=$FSM_TEST_RUNS/22-usb-safe-main
rm -rf "$RUN" && mkdir -p "$RUN/disks" "$RUN.data"
echo "fsmatrix must not touch this file" >"$RUN.data/precious.txt"
truncate -s 64M "$RUN/disks/fsmtest0.img" "$RUN/disks/fsmtest1.img"
check "a 64 MiB ext4 disk holding precious.txt is made on the host" \
	mkfs.ext4 -q -F -d "$RUN.data" "$RUN/disks/fsmtest0.img"
snapshot "$RUN/disks/fsmtest0.img"
snapshot "$RUN/disks/fsmtest1.img"
snapshot "$USB_IMG"

boot main --boot-disk "$USB_IMG" --boot-bus virtio-blk --firmware bios --disks 2 --size 64M --reuse --keep --timeout 300
expect_status "the run completes: trailer printed, powered off (exit 0)" 0
expect_record "header: the default entry booted (a dry run with no fsmatrix.disks=)" \
	'select(.type == "header") | (.kernel.cmdline | test("fsmatrix\\.dry=1") and (test("fsmatrix\\.disks=") | not)) and .dry == true'
expect_record "header: the ext4 disk was seen and not taken" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest0") | .verdict == "not-named"'
expect_record "header: the blank disk was seen and not taken" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest1") | .verdict == "not-named"'
expect_record "the trailer: no disk taken, no cell ran" \
	'select(.type == "trailer") | .disks_taken == 0 and .counts.ok == 0 and .counts.error == 0'
expect_no_console "no cell record" '"type":"cell"'
sha256_unchanged "the ext4 disk is unchanged, byte for byte" "$RUN/disks/fsmtest0.img"
sha256_unchanged "the blank disk is unchanged, byte for byte" "$RUN/disks/fsmtest1.img"
expect_stick_record "the stick kept the dry run's records" "$RUN/results.img" '.type == "trailer"'
sha256_unchanged "the shipped out/fsmatrix-usb.img is unchanged" "$USB_IMG"
rm -rf "$RUN/disks" "$RUN.data"

# The menu's shell entry: the disks and the plan shown, then a shell on the console; "exit"
# typed into it powers the machine off with nothing run.
shell_copy() { # IMG
	local p
	cp --sparse=always "$USB_IMG" "$1" && p=$(stick_part "$1") &&
		mcopy -o -n -i "$p" ::syslinux.cfg "$1.cfg" &&
		sed -i -e 's/^TIMEOUT .*/TIMEOUT 1/' -e 's/^DEFAULT .*/DEFAULT shell/' "$1.cfg" &&
		mcopy -o -i "$p" "$1.cfg" ::syslinux.cfg
}
# lib.sh's boot() gives qemu no input; this one types "exit" once the shell is up (earlier,
# syslinux's boot: prompt would read it).
type_exit() {
	local i
	for ((i = 0; i < 240; i++)); do
		grep -q 'built-in shell' "$RUN/console.log" 2>/dev/null && break
		sleep 1
	done
	sleep 2
	echo exit
	for ((i = 0; i < 60; i++)); do [ ! -e "$RUN/status" ] || break; sleep 1; done
}
stick=$FSM_TEST_RUNS/22-usb-safe-shell.img
check "a copy of the stick defaults to its shell entry" shell_copy "$stick"
RUN=$FSM_TEST_RUNS/22-usb-safe-shell
rm -rf "$RUN"
type_exit | "$FSM_ROOT/qemu/run" --run-dir "$RUN" --mem 1024M --timeout 300 \
	--boot-disk "$stick" --boot-bus virtio-blk --disks 1 --size 64M >"$RUN.out" 2>&1
# shellcheck disable=SC2034 # read by lib.sh's expect_status
BOOT_STATUS=${PIPESTATUS[1]}
expect_status "shell: exit powers the guest off, without a trailer (exit 2)" 2
expect_console "shell: /init starts a shell once the disks are shown" \
	'starting a shell on the console \(fsmatrix\.shell=now\)'
expect_console "shell: busybox sh runs on the console and reads what is typed" '^# exit'
expect_record "shell: the disk was seen and not taken" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest0") | .verdict == "not-named"'
expect_no_console "shell: no cell record" '"type":"cell"'
expect_console "shell: powered off" 'fsmatrix: powering off'
