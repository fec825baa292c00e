# 58-lvm: lvm's own volumes, built by the image's static lvm on one boot of
# tests/plans/lvm.ini over three blank disks (fsmtest0-2):
#  - md's raid5 and lvm's raid5 (lvcreate --type raid5, dm-raid) on the same disks, each with
#    ext4 and each waiting out its sync: records for both, lvm's with what lvs and dm-raid's
#    status line say of the LV (raid5, 3 legs, a 64 KiB stripe, every leg in sync) and
#    ext4's stripe geometry derived from the LV's stripe (stride 16, stripe width 32);
#  - lvm's striped volume with lv_size: 3 stripes of 128 KiB, 120 MiB;
#  - a bcache layer over lvm's raid5, its cache on fsmtest4 (the fourth disk handed over):
#    cache_mode, sequential_cutoff and the congestion thresholds written and read back, its
#    counters recorded (no byte bypassed the cache), no bcache superblock left anywhere on
#    the taken disks;
#  - teardown: vgremove and pvremove after each cell, and no LVM2 label left on a taken disk;
#  - no descriptor of /init but stdin, stdout and stderr reaches a tool (lvm warns of each);
#  - fsmtest3 carries an LVM2 PV label (LABELONE in its second sector, "LVM2 001"): named by
#    the same serial glob, it is refused for it and stays byte-identical (every lvm command
#    names the cell's disks with --devices, so lvm never opens it either).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-raid5
rm -rf "$RUN" && mkdir -p "$RUN/disks"
D=$RUN/disks
for i in 0 1 2 3 4; do truncate -s 192M "$D/fsmtest$i.img"; done
printf 'LABELONE\x01\x00\x00\x00\x00\x00\x00\x00' | dd of="$D/fsmtest3.img" bs=1 seek=512 conv=notrunc status=none
printf 'LVM2 001' | dd of="$D/fsmtest3.img" bs=1 seek=$((512 + 24)) conv=notrunc status=none
snapshot "$D/fsmtest3.img"

boot raid5 --disks 5 --size 192M --reuse --keep --timeout 600 --plan "$FSM_ROOT/tests/plans/lvm.ini"
expect_status "the run completes (exit 0)" 0
expect_record "an LVM2 PV label on a disk not handed over is found by the probe and refused" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest3") | .verdict == "has-signature" and .signature == "lvm"'
sha256_unchanged "the disk with the LVM2 label is byte-identical" "$D/fsmtest3.img"

at() { printf 'select(.type == "cell" and .cell == "%s")' "$1"; }
expect_record "md raid5 + ext4: ok on /dev/md0, resynced" \
	"$(at md5-c64k/ext4/defaults/seq) | .status == \"ok\" and .target == \"/dev/md0\" and .axes.level == \"raid5\" and .resync_s >= 0"
expect_record "lvm raid5 + ext4: ok on the LV, made by pvcreate, vgcreate and lvcreate --type raid5 over the three disks alone" \
	"$(at lv5-c64k/ext4/defaults/seq) | .status == \"ok\" and .target == \"/dev/mapper/fsm-lv\" and .axes.level == \"lvm-raid5\" and ([.steps[] | select(.argv[0] == \"lvm\" and .status == 0) | .argv[1]] | index(\"pvcreate\") != null and index(\"vgcreate\") != null and index(\"lvcreate\") != null) and any(.steps[]; .argv[1] == \"lvcreate\" and (.argv | index(\"raid5\")) and (.argv | index(\"--devices\")) and .argv[(.argv | index(\"--devices\")) + 1] == \"/dev/vdb,/dev/vdc,/dev/vdd\")"
expect_record "lvm raid5: lvs says raid5, 3 legs, a 64 KiB stripe; dm-raid says every leg in sync" \
	"$(at lv5-c64k/ext4/defaults/seq) | .lvm.segtype == \"raid5\" and .lvm.stripes == 3 and .lvm.stripe_size == 65536 and .lvm.region_size > 0 and (.lvm.dm | test(\"^dm-[0-9]+\$\")) and (.lvm.status | test(\" raid raid5_ls 3 AAA ([0-9]+)/\\\\1 idle \")) and .resync_s >= 0"
expect_record "lvm raid5: ext4's stripe geometry is the LV's (stride 16, stripe width 32)" \
	"$(at lv5-c64k/ext4/defaults/seq) | (.fs_geometry | test(\"RAID stride:[ ]+16\") and test(\"RAID stripe width:[ ]+32\"))"
expect_record "lvm raid5: teardown removed the VG and the PVs (vgremove, pvremove: status 0)" \
	"$(at lv5-c64k/ext4/defaults/seq) | ([.steps[] | select(.argv[0] == \"lvm\" and (.argv[1] == \"vgremove\" or .argv[1] == \"pvremove\")) | .status] == [0, 0])"
expect_record "lvm striped with lv_size: 3 stripes of 128 KiB, 120 MiB" \
	"$(at lvs-c128k/ext4/defaults/seq) | .status == \"ok\" and .lvm.segtype == \"striped\" and .lvm.stripes == 3 and .lvm.stripe_size == 131072 and .lvm.lv_bytes == 125829120"
expect_record "no descriptor of /init leaks into lvm (lvm warns of each it inherits)" \
	"$(at lv5-c64k/ext4/defaults/seq) | [.steps[] | select(.argv[0] == \"lvm\") | .stderr | test(\"leaked\")] | length >= 5 and all(. == false)"
expect_record "bcache over lvm raid5: ok on /dev/bcache0, its settings read back as written" \
	"$(at lvbc-c64k+ssd/ext4/defaults/seq) | .status == \"ok\" and .target == \"/dev/bcache0\" and .layers.bcache.cache_mode == \"writeback\" and .layers.bcache.sequential_cutoff == 0 and .layers.bcache.congested_read_threshold_us == 0 and .layers.bcache.congested_write_threshold_us == 0 and any(.steps[]; .argv[0] == \"make-bcache\" and .status == 0 and (.argv | index(\"/dev/mapper/fsm-lv\")) and (.argv | index(\"/dev/vdf\")))"
expect_record "bcache: its counters recorded, the writes held in the cache (dirty), nothing bypassed" \
	"$(at lvbc-c64k+ssd/ext4/defaults/seq) | .layers.bcache | .dirty_bytes > 16777216 and .bypassed_bytes == 0 and .bypass_hits == 0 and .bypass_misses == 0 and .hits >= 0 and .misses >= 0"
expect_record "bcache: stopped before lvm removed the LV (vgremove, pvremove: status 0)" \
	"$(at lvbc-c64k+ssd/ext4/defaults/seq) | ([.steps[] | select(.argv[0] == \"write\" and (.argv[1] | test(\"/stop\$\"))) | .status] == [0, 0]) and ([.steps[] | select(.argv[0] == \"lvm\" and (.argv[1] == \"vgremove\" or .argv[1] == \"pvremove\")) | .status] == [0, 0])"
for i in 0 1 2 4; do
	check "no LVM2 label is left on fsmtest$i, a taken disk" \
		sh -c "! dd if='$D/fsmtest$i.img' bs=512 skip=1 count=3 status=none | grep -q LABELONE"
	check "no bcache superblock is left anywhere on fsmtest$i" \
		sh -c "! LC_ALL=C grep -qaP '\\xc6\\x85\\x73\\xf6\\x4e\\x1a\\x45\\xca\\x82\\x65\\xf5\\x7f\\x48\\xba\\x6d\\x81' '$D/fsmtest$i.img'"
done
rm -rf "$D"
