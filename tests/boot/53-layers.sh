# 53-layers: device-mapper layers made by the image's static dmsetup between the array and the
# filesystem (tests/plans/layers.ini): crypt (aes-xts-plain64, a 512-bit key drawn per cell)
# over raid5 with xfs and ext4, a 320 MiB thin volume over one plain disk, a writeback
# dm-cache over raid6 on the fifth disk handed over (its own counters recorded after the
# workload). Each cell's record carries the tables dmsetup read back, the crypt key only as
# its sha256 (the table's key zeroed); a cell whose mkfs fails after its layers were made
# leaves no mapping behind (the next cell makes the same names again). Three more disks are
# named by the same serial glob but refused for what they carry, a LUKS1 header, a LUKS2
# second header alone (the first overwritten), and a bcache superblock: each stays
# byte-identical. Then a power cut during a crypt cell (tests/plans/layers-cut.ini): the next
# boot resumes it and makes its mapping again, with no stale one in the way.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

at() { printf 'select(.type == "cell" and .cell == "%s")' "$1"; }

RUN=$FSM_TEST_RUNS/53-layers-stacks
rm -rf "$RUN" && mkdir -p "$RUN/disks"
D=$RUN/disks
for i in 0 1 2 3 4 5 6 7; do truncate -s 384M "$D/fsmtest$i.img"; done
# LUKS1: magic and version 1 at 0, a cipher name after it, as cryptsetup writes them
printf 'LUKS\xba\xbe\x00\x01aes' | dd of="$D/fsmtest5.img" bs=1 conv=notrunc status=none
# LUKS2 whose first header was overwritten: its second binary header at 16 KiB, labelled
printf 'SKUL\xba\xbe\x00\x02' | dd of="$D/fsmtest6.img" bs=1 seek=16384 conv=notrunc status=none
printf 'vault' | dd of="$D/fsmtest6.img" bs=1 seek=$((16384 + 24)) conv=notrunc status=none
# bcache: its magic 24 bytes into the superblock at 4 KiB
printf '\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81' |
	dd of="$D/fsmtest7.img" bs=1 seek=$((4096 + 24)) conv=notrunc status=none
for i in 5 6 7; do snapshot "$D/fsmtest$i.img"; done

boot stacks --disks 8 --size 384M --reuse --keep --timeout 600 --plan "$FSM_ROOT/tests/plans/layers.ini"
expect_status "the run completes (exit 0)" 0
sig() { # SERIAL TYPE: refused for TYPE
	printf 'select(.type == "header") | .disks[] | select(.serial == "%s") | .verdict == "has-signature" and .signature == "%s"' "$1" "$2"
}
expect_record "a LUKS1 header is refused" "$(sig fsmtest5 luks)"
expect_record "a LUKS2 second header alone is refused" "$(sig fsmtest6 luks)"
expect_record "a bcache superblock is refused" "$(sig fsmtest7 bcache)"
sha256_unchanged "the LUKS1 disk is byte-identical" "$D/fsmtest5.img"
sha256_unchanged "the LUKS2 disk is byte-identical" "$D/fsmtest6.img"
sha256_unchanged "the bcache disk is byte-identical" "$D/fsmtest7.img"

expect_record "crypt over raid5 + xfs: ok, on the crypt device, its table read back with the key zeroed" \
	"$(at r5-c64k+luks/xfs/defaults/seq) | .status == \"ok\" and .axes.layers == \"luks\" and .target == \"/dev/mapper/fsm-0-crypt\" and (.layers.tables | length == 1) and (.layers.tables[0] | test(\"^fsm-0-crypt: 0 [0-9]+ crypt aes-xts-plain64 0{128} 0 9:0 0\$\"))"
cells() { records_console | jq -r -s "$1"; }
check "crypt: the key's sha256 is recorded, a new key in each of the 3 crypt cells" test "$(cells \
	'[.[] | select(.type == "cell" and (.cell | test("[+]luks/"))) | .layers.key_sha256 | select(test("^[0-9a-f]{64}$"))] | unique | length')" = 3
check "no key reaches the results disk: no 128 hex digits but zeros in any record" \
	sh -c "! grep -Eqo '[0-9a-f]{128}' '$RUN'/results/*.jsonl || ! grep -Eo '[0-9a-f]{128}' '$RUN'/results/*.jsonl | grep -qv '^0*\$'"
expect_record "thin over a plain disk + ext4: a 320 MiB thin volume in a pool with its metadata device" \
	"$(at plain+pool/ext4/defaults/seq) | .status == \"ok\" and .target == \"/dev/mapper/fsm-0-thin\" and .layers.thin_meta_sectors == 4096 and ([.layers.tables[] | test(\"^fsm-0-(tmeta|tdata|pool|thin): \")] | length == 4 and all) and any(.layers.tables[]; test(\"^fsm-0-thin: 0 655360 thin \"))"
expect_record "thin + xfs: ok" "$(at plain+pool/xfs/defaults/seq) | .status == \"ok\""
expect_record "cache over raid6: a writeback smq dm-cache on the fifth disk" \
	"$(at r6+ssd/ext4/defaults/seq) | .status == \"ok\" and .target == \"/dev/mapper/fsm-0-cache\" and any(.layers.tables[]; test(\"^fsm-0-cache: 0 [0-9]+ cache [0-9]+:[0-9]+ [0-9]+:[0-9]+ 9:0 128 1 writeback smq 0\$\"))"
expect_record "cache + xfs: ok" "$(at r6+ssd/xfs/defaults/seq) | .status == \"ok\""
expect_record "cache: dm-cache's own counters after the workload (its writes counted, blocks in use)" \
	"$(at r6+ssd/ext4/defaults/seq) | .layers.dm_cache | .write_hits + .write_misses > 0 and .used_blocks > 0 and .total_blocks >= .used_blocks and .dirty_blocks >= 0"
check "a failed mkfs on the layers is an error cell, its teardown removing them (dmsetup remove)" test "$(cells \
	'[.[] | select(.type == "cell" and (.cell | test("/broken/"))) | .status == "error" and any(.steps[]; .argv[0] == "dmsetup" and .argv[3] == "remove")] | map(select(.)) | length')" = 3
check "every cell after a failed one made its layers again (no name left taken): 6 ok" test "$(cells \
	'[.[] | select(.type == "cell" and (.cell | test("/broken/") | not)) | select(.status == "ok")] | length')" = 6

# A power cut during a crypt cell, then the resume.
RUN=$FSM_TEST_RUNS/53-layers-cut
rm -rf "$RUN"
# the slow cell's kill (lib.sh: disks capped at SLOW_IOPS, killed 2 s in): its 16m of 4 KiB
# writes take about 10 s on any host, where a fixed 5 s on an uncapped disk let a fast host
# finish the cell first (make test, 2026-12-08)
boot_killed_slow cut 'slow rep 1/1: running' --disks 1 --size 384M --keep --timeout 300 \
	--plan "$FSM_ROOT/tests/plans/layers-cut.ini"
check "qemu was killed while the crypt cell ran" test "$KILLED" = yes
boot cut --reuse --disks 1 --size 384M --keep --timeout 300 --plan "$FSM_ROOT/tests/plans/layers-cut.ini"
expect_status "the second boot completes the run (exit 0)" 0
expect_record "the crypt cell was interrupted once, then ran again as attempt 2 and is ok, its mapping made anew" \
	"select(.type == \"cell\" and .status != \"interrupted\") | .attempt == 2 and .status == \"ok\" and .target == \"/dev/mapper/fsm-0-crypt\" and (.layers.tables | length == 1)"
rm -rf "$FSM_TEST_RUNS/53-layers-stacks/disks" "$RUN/disks"
