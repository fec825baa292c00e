# qemu/lib/disks.sh: sourced by qemu/run (one file per job of it): the run directory and its disks: each test disk made afresh and preallocated (or kept with --reuse), the results disk, their throttles, and the rest of the qemu command line that names them.
# shellcheck shell=bash

cd "$run_dir" || die "unable to enter $run_dir"
if [ "$reuse" = 0 ] && [ -n "$(ls -A . 2>/dev/null)" ]; then
	die "the run directory $run_dir is not empty: choose another --run-id, or --reuse it"
fi
# what the disks were capped at, beside the results: the truth a calibration compares with
rm -f disk-throttle
if [ -n "$disk_mbps$disk_iops" ]; then
	for ((i = 0; i < disks; i++)); do
		echo "fsmtest$i bps-total=${throttle_bps[$i]:-0} iops-total=${throttle_iops[$i]:-0}"
	done >disk-throttle
fi

make_disk() { # FILE BYTES
	local f=$1 b=$2
	rm -f "$f"
	case $prealloc in
	fallocate)
		fallocate -l "$b" "$f" 2>/dev/null || {
			say "warning: fallocate is not supported here; writing zeros over $f instead"
			dd if=/dev/zero of="$f" bs=1M count=$((b >> 20)) status=none conv=fsync || return 1
			truncate -s "$b" "$f"
		} ;;
	zero)
		dd if=/dev/zero of="$f" bs=1M count=$((b >> 20)) status=none conv=fsync || return 1
		truncate -s "$b" "$f" ;;
	none) truncate -s "$b" "$f" ;;
	esac
}

mkdir -p disks
for ((i = 0; i < disks; i++)); do
	f=disks/fsmtest$i.img
	if [ "$reuse" = 1 ] && [ -f "$f" ]; then
		have=$(stat -c %s "$f")
		[ "$have" = "$size_b" ] || die "--reuse: $run_dir/$f is $have bytes, not --size $size ($size_b)"
		continue
	fi
	[ "$reuse" = 0 ] || say "--reuse: $f is missing, making it anew"
	make_disk "$f" "$size_b" || die "unable to make the test disk $run_dir/$f"
done
# qemu 7.2 learns the O_DIRECT alignment of an image by reading its first bytes with O_DIRECT
# at offsets 1, 512, ... The host kernel serves a read of a hole or of an unwritten
# (fallocated) extent without checking alignment, so on a fresh image the 1-byte read passes
# and qemu falls back to 4 KiB: it then pads every guest request that is not on 4 KiB with a
# read-modify-write, and a padded request of 1024 vectors (virtio-blk merges up to IOV_MAX)
# fails with EINVAL, which the guest sees as an I/O error (6.12 with ext4 at 1 KiB blocks,
# docs/image.md). Writing the first block back with its own bytes makes it a written extent,
# so qemu finds the host's real alignment; the image's contents do not change.
if [ "$cache" = none ]; then
	pad=
	for ((i = 0; i < disks; i++)); do
		f=disks/fsmtest$i.img
		dd if="$f" of="$f" bs=4096 count=1 conv=notrunc,fsync status=none 2>/dev/null ||
			die "unable to write the first block of $run_dir/$f back onto itself"
		# what qemu's probe will see: a 1-byte read refused and a 512-byte read served
		if dd if="$f" of=/dev/null bs=1 count=1 iflag=direct status=none 2>/dev/null ||
			! dd if="$f" of=/dev/null bs=512 count=1 iflag=direct status=none 2>/dev/null; then
			pad=$f
		fi
	done
	# Still padded (a host whose O_DIRECT needs more than 512 bytes, or a filesystem that
	# serves any read): without merging a virtio-blk request stays under IOV_MAX padded.
	if [ -n "$pad" ]; then
		say "warning: qemu will pad guest writes to the O_DIRECT alignment of $run_dir/$pad (over 512 bytes): virtio-blk request merging is turned off, as qemu 7.2 fails a padded request of 1024 vectors"
		for j in "${!cmd[@]}"; do
			case ${cmd[j]} in virtio-blk-pci,drive=drv-fsmtest*) cmd[j]="${cmd[j]},request-merging=off" ;; esac
		done
	fi
fi

# mtools addresses the FAT partition inside the image file by its byte offset.
PART_OFF=$((1 << 20))
export MTOOLS_SKIP_CHECK=1 MTOOLS_NO_VFAT=0
IMG="results.img@@$PART_OFF"

if [ "$firmware" != bios ]; then
	cp "$OVMF_VARS" OVMF_VARS.fd || die "unable to copy $OVMF_VARS into $run_dir"
fi
if [ -n "$boot_disk" ] && { [ "$reuse" = 0 ] || [ ! -f results.img ]; }; then
	cp --sparse=always "$boot_disk" results.img || die "unable to copy $boot_disk into $run_dir"
fi
if [ -n "$boot_disk" ]; then
	# The image's own first partition, wherever its builder put it.
	start=$(sfdisk -d results.img 2>/dev/null | sed -n 's/^[^:]*1 : start= *\([0-9]*\).*/\1/p')
	[ -n "$start" ] || die "the boot disk $boot_disk has no first partition in an MBR or GPT table"
	PART_OFF=$((start * 512)) IMG="results.img@@$PART_OFF"
elif [ "$reuse" = 0 ] || [ ! -f results.img ]; then
	rm -f results.img
	truncate -s "$rsize_b" results.img || die "unable to make $run_dir/results.img"
	# One FAT partition from 1 MiB to the end, as on a USB stick (FAT16 type 0e below 512 MiB,
	# FAT32 type 0c above): /init finds it by label, like on real hardware.
	if [ "$rsize_b" -ge $((512 << 20)) ]; then fat=32 ptype=c; else fat=16 ptype=e; fi
	echo "start=2048, type=$ptype" | sfdisk -q --label dos results.img >/dev/null ||
		die "unable to partition $run_dir/results.img"
	mkfs.vfat -F "$fat" -n FSMRESULTS --offset 2048 results.img $(((rsize_b - PART_OFF) / 1024)) >/dev/null ||
		die "unable to make the FAT filesystem on $run_dir/results.img"
	mmd -i "$IMG" ::fsmatrix || die "unable to make fsmatrix/ on $run_dir/results.img"
fi
if [ -n "$plan" ]; then
	mcopy -o -i "$IMG" "$plan" ::fsmatrix/plan.ini || die "unable to copy $plan onto the results disk"
fi
for f in "${files[@]}"; do
	mcopy -o -i "$IMG" "$f" "::fsmatrix/$(basename "$f")" ||
		die "unable to copy $f onto the results disk (too big for it? see --results-size)"
done
for k in $kernel_sets; do
	for d in ::fsmatrix/kernels "::fsmatrix/kernels/$k"; do
		mdir -i "$IMG" "$d" >/dev/null 2>&1 || mmd -i "$IMG" "$d" || die "unable to make ${d#::} on the results disk"
	done
	mcopy -o -i "$IMG" "$ROOT/out/kernels/$k/vmlinuz" "$ROOT/out/kernels/$k/initramfs.img" "::fsmatrix/kernels/$k/" ||
		die "unable to copy the kernel set $k onto the results disk (too big for it? see --results-size)"
done

if [ -f console.log ]; then
	n=1
	while [ -e "console.$n.log" ]; do n=$((n + 1)); done
	mv console.log "console.$n.log"
fi
rm -f status qmp.sock qemu.pid
shell_line "${cmd[@]}" >qemu.cmdline
printf '%s (%s)\n' "$chosen" "$reason" >accel
