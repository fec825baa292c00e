# 22-usb-safe: the stick exactly as shipped (its default entry after its own 10 s timeout),
# booted next to a disk holding an ext4 filesystem with a file and a blank disk. It names no
# disks: it lists both, takes neither, runs nothing, and neither disk changes by one byte.
# The shipped boot configs (stick and PXE) name no disk. The stick is a virtio disk here,
# so that the virtio path of --boot-disk is booted too (20 and 21 boot it as USB).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/media.sh"

[ -s "$USB_IMG" ] || skip_all "$USB_IMG is missing (make usb)"
command -v mkfs.ext4 >/dev/null || skip_all "mkfs.ext4 is missing on the host (e2fsprogs)"

names_no_disk() { # COMMAND...: no kernel command line in its output names a disk
	local hits
	hits=$("$@" | tr -d '\r' | grep -iE '^ *(append|set params|kernel) .*fsmatrix\.(disks|wipe)=')
	[ -z "$hits" ] || { echo "it names disks: $hits"; return 1; }
}
check "the stick's syslinux.cfg names no disk" names_no_disk stick_file "$USB_IMG" syslinux.cfg
check "the stick's default entry is the dry run" \
	bash -c "$(declare -f stick_file stick_part); stick_file '$USB_IMG' syslinux.cfg | tr -d '\\r' | grep -qx 'DEFAULT dry'"
if [ -d "$PXE_DIR" ]; then
	check "out/pxe/pxelinux.cfg/default names no disk" names_no_disk cat "$PXE_DIR/pxelinux.cfg/default"
	check "out/pxe/boot.ipxe names no disk" names_no_disk cat "$PXE_DIR/boot.ipxe"
fi

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
