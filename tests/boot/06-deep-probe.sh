# 06-deep-probe: a disk whose first MiB was zeroed (a partition table zapped with
# `dd bs=1M count=1`) but which still holds a filesystem, an md member or an LVM physical
# volume in the partition that started at 1 MiB is not blank. Every such disk is named in
# fsmatrix.disks= without fsmatrix.wipe=: each must be refused for what it holds at 1 MiB and
# stay byte-identical, while a truly blank disk beside them is taken and runs the cell.
# ext4 and xfs are made by the real mkfs (the host's mkfs.ext4, the image's own mkfs.xfs);
# the md v1.2 superblock and the LVM label are the bytes mdadm and pvcreate write first (the
# host has neither tool, and test arrays do not belong on a CI host's kernel).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
command -v mkfs.ext4 >/dev/null || skip_all "mkfs.ext4 is missing on the host (e2fsprogs)"
MKFS_XFS=$FSM_ROOT/build/xfsprogs/dest/sbin/mkfs.xfs
[ -x "$MKFS_XFS" ] || skip_all "$MKFS_XFS is missing (make image builds it)"

MiB=1048576
R=$FSM_TEST_RUNS/06-deep-probe-zapped
rm -rf "$R" && mkdir -p "$R/disks"
D=$R/disks
for i in 0 1 2 3 4; do truncate -s 400M "$D/fsmtest$i.img"; done
# ext4 in a partition at 1 MiB
mkfs.ext4 -q -F -E offset=$MiB "$D/fsmtest0.img" 64M
# xfs (it needs 300 MB at least) made in a file of its own, then put at 1 MiB
truncate -s 320M "$R/xfs.img" && "$MKFS_XFS" -q -f "$R/xfs.img" &&
	dd if="$R/xfs.img" of="$D/fsmtest1.img" bs=1M seek=1 conv=notrunc,sparse status=none
rm -f "$R/xfs.img"
# md v1.2: the superblock 4 KiB into the member: magic a92b4efc, major version 1, set name
printf '\xfc\x4e\x2b\xa9\x01\x00\x00\x00' | dd of="$D/fsmtest2.img" bs=1 seek=$((MiB + 4096)) conv=notrunc status=none
printf 'fsmtest:zapped' | dd of="$D/fsmtest2.img" bs=1 seek=$((MiB + 4096 + 32)) conv=notrunc status=none
# LVM2: the label in the second sector of the physical volume
printf 'LABELONE\x01\x00\x00\x00\x00\x00\x00\x00' | dd of="$D/fsmtest3.img" bs=1 seek=$((MiB + 512)) conv=notrunc status=none
printf 'LVM2 001' | dd of="$D/fsmtest3.img" bs=1 seek=$((MiB + 512 + 24)) conv=notrunc status=none
for i in 0 1 2 3 4; do snapshot "$D/fsmtest$i.img"; done

boot zapped --disks 5 --size 400M --reuse --keep --timeout 300 --plan "$(dirname "$0")/smoke.ini"
expect_status "the run completes" 0
disk() { # SERIAL TYPE: the header's verdict for that disk names TYPE at 1 MiB
	printf 'select(.type == "header") | .disks[] | select(.serial == "%s") | .verdict == "has-signature" and .signature == "%s" and (.reason | test("1 MiB"))' "$1" "$2"
}
expect_record "ext4 at 1 MiB is refused as ext4" "$(disk fsmtest0 ext4)"
expect_record "xfs at 1 MiB is refused as xfs" "$(disk fsmtest1 xfs)"
expect_record "md v1.2 at 1 MiB is refused as md" "$(disk fsmtest2 md)"
expect_record "an LVM label at 1 MiB is refused as lvm" "$(disk fsmtest3 lvm)"
expect_record "the blank disk is taken" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest4") | .verdict == "taken"'
expect_record "the cell ran on the blank disk" 'select(.type == "cell") | .status == "ok"'
for i in 0 1 2 3; do
	sha256_unchanged "fsmtest$i is unchanged, byte for byte" "$D/fsmtest$i.img"
done
rm -rf "$D"
