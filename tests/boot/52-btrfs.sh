# 52-btrfs: btrfs with its own RAID, on one boot of tests/plans/btrfs.ini over four blank
# disks (fsmtest0-3), beside md raid10 with ext4 and with btrfs:
#  - btrfs raid1 (metadata raid1c3) and raid10 over the four disks, made by mkfs.btrfs over
#    them with no md, mounted with device= for each; the profiles the kernel holds read back
#    from sysfs and recorded; the plan's mount options in effect;
#  - a degraded raid1: two disks, the second wiped and forgotten after mkfs, mounted
#    degraded;
#  - a btrfs level under ext4 is skipped with its reason; btrfs's limit rule (copies 2);
#  - teardown leaves no btrfs superblock on the taken disks, copies included;
#  - fsmtest4 holds a btrfs whose first superblock was erased (the copy at 64 MiB left): it
#    is named in fsmatrix.disks= but not in wipe=, so it is refused for its signature and
#    left byte-identical; fsmtest5 is not named and is left byte-identical too.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
command -v mkfs.btrfs >/dev/null || skip_all "mkfs.btrfs is missing on the host (btrfs-progs)"
PLAN=$FSM_ROOT/tests/plans/btrfs.ini

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-raid
rm -rf "$RUN" && mkdir -p "$RUN/disks"
for i in 0 1 2 3 4; do truncate -s 512M "$RUN/disks/fsmtest$i.img"; done
mkfs.btrfs -q -f -L kept "$RUN/disks/fsmtest4.img" >/dev/null
dd if=/dev/zero of="$RUN/disks/fsmtest4.img" bs=1M count=1 conv=notrunc status=none
head -c 512M /dev/urandom >"$RUN/disks/fsmtest5.img"
snapshot "$RUN/disks/fsmtest4.img"
snapshot "$RUN/disks/fsmtest5.img"
boot raid --disks 6 --size 512M --reuse --keep --no-select --timeout 900 --plan "$PLAN" \
	--append "fsmatrix.disks=serial:fsmtest0,serial:fsmtest1,serial:fsmtest2,serial:fsmtest3,serial:fsmtest4"
expect_status "the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
rec() { jq -c -s "[.[] | select(.type == \"cell\" and .cell == \"$1\")][0] | $2" "$j"; }
steps() { rec "$1" '[.steps[].argv | join(" ")] | join("\n")' | jq -r .; }

check "10 cells ok, the 6 of a btrfs level under ext4 skipped with the reason" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | .status] | group_by(.) | map("\(.[0]) \(length)") | join(",")' "$j"),$(rec b1/ext4/defaults/seq .error)" \
	= "ok 10,skipped 6,\"[array b1] is btrfs's own raid1 over 4 disks: only type = btrfs spans them, not ext4 ([fs ext4])\""
B1=b1/btrfs/noatime,compress=zstd:1,space_cache=v2/seq
B10=b10/btrfs/noatime,compress=zstd:1,space_cache=v2/seq
DEG=b1deg/btrfs/noatime,compress=zstd:1,space_cache=v2/seq
check "raid1: mkfs.btrfs over the four disks with the profiles asked, no md" test \
	"$(steps "$B1" | grep -c '^mkfs.btrfs -f -d raid1 -m raid1c3 /dev/vd. /dev/vd. /dev/vd. /dev/vd.$'),$(steps "$B1" | grep -c '^mdadm')" = "1,0"
check "raid1: the profiles read back as asked: data raid1, metadata and system raid1c3" test \
	"$(rec "$B1" '"\(.btrfs_profile) \(.mount_ignored)"')" = '"data=raid1,metadata=raid1c3,system=raid1c3 []"'
check "raid10: data raid10, metadata and system raid1 (mkfs.btrfs's default over several disks)" test \
	"$(rec "$B10" .btrfs_profile)" = '"data=raid10,metadata=raid1,system=raid1"'
check "raid10: mounted from the four with the plan's options in effect" jq -e -s \
	"[.[] | select(.type == \"cell\" and .cell == \"$B10\")][0] | (.steps[] | select(.argv[0] == \"mount(2)\") | .argv[5] | test(\"device=/dev/vd.,device=/dev/vd.,device=/dev/vd.,device=/dev/vd.\$\")) and (.mount_effective | test(\" btrfs rw,noatime,compress=zstd:1,.*space_cache=v2\"))" "$j"
check "raid10: the limit is the disks over btrfs's two copies" jq -e -s \
	"[.[] | select(.type == \"cell\" and .cell == \"$B10\")][0] | .limit.rule | startswith(\"btrfs-raid10 of 4, 0 missing: 2 streams\")" "$j"
# (the last two wipes are the teardown's, both disks)
W="wipe DEV first and last 1 MiB, btrfs's copies"
check "degraded raid1: the second disk wiped and forgotten after mkfs, mounted degraded from the first" test \
	"$(steps "$DEG" | grep -E '^(mkfs|wipe|btrfs device|mount)' | sed 's|/dev/vd.|DEV|g' | tr '\n' '|')" \
	= "$W|$W|mkfs.btrfs -f -d raid1 DEV DEV|$W|btrfs device scan --forget|mount(2) DEV /mnt/test btrfs noatime compress=zstd:1,space_cache=v2,device=DEV,degraded|$W|$W|"
check "degraded raid1: the kernel mounted it degraded" jq -e -s \
	"[.[] | select(.type == \"cell\" and .cell == \"$DEG\")][0] | .status == \"ok\" and (.mount_effective | test(\"degraded\"))" "$j"
check "degraded raid1: what the kernel holds is recorded" jq -e -s \
	"[.[] | select(.type == \"cell\" and .cell == \"$DEG\")][0] | .btrfs_profile | test(\"^data=raid1[+a-z0-9]*,metadata=raid1[+a-z0-9]*,system=raid1\")" "$j"
check "md raid10 + btrfs: no profile asked, single data and dup metadata on the one md device" test \
	"$(rec md10/btrfs/noatime,compress=zstd:1,space_cache=v2/seq .btrfs_profile)" = '"data=single,metadata=dup,system=dup"'
check "small files ran on each btrfs" test "$(jq -r -s \
	'[.[] | select(.type == "cell" and .axes.fstype == "btrfs" and .axes.workload == "small" and .status == "ok")] | length' "$j")" = 4
expect_record "fsmtest4 (a btrfs copy at 64 MiB, the first erased) is refused for its signature" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest4") | .verdict == "has-signature" and (.reason | test("btrfs"))'
sha256_unchanged "fsmtest4 is byte-identical" "$RUN/disks/fsmtest4.img"
sha256_unchanged "fsmtest5, not named, is byte-identical" "$RUN/disks/fsmtest5.img"
left=
for i in 0 1 2 3; do
	for blk in 16 16384; do   # 4 KiB blocks: the superblock at 64 KiB and its copy at 64 MiB
		[ "$(dd if="$RUN/disks/fsmtest$i.img" bs=4096 skip=$blk count=1 status=none | head -c 72 | tail -c 8)" != "_BHRfS_M" ] || left="$left fsmtest$i@$blk"
	done
done
check "teardown leaves no btrfs superblock on the taken disks, copies included" test -z "$left"
rm -rf "$RUN/disks"
