# 49-hardening: what any user meets, in one boot (tests/plans/hardening.ini). An fio writer
# limited to 1 MB/s for ten minutes hits its cell's 20-second timeout, on a raw disk and on
# a raid0: fio runs in a process group of its own, so killing the workload's group alone
# left it writing and holding the cell's filesystem, and every later cell failed "unable to
# wipe: Resource busy". Each timed-out cell now names the fio it killed, and the cell after
# it runs ok on the same disks. raid0 at the default resync (wait) runs: a level without
# redundancy has no resync (and no sync_action to wait on). A third disk, not handed over,
# stays byte-identical. Then the 6.1 image booted with fsmatrix.kernel=6.12 and a plan that
# names no kernels: the label is dropped, said on the console, and no record carries it
# (every record of the boot was labelled 6.12 before). Last, a stripe cache of 32768 entries
# over 3 members in a 512 MiB guest (it panicked the kernel): refused before it is written,
# the cell an error saying why, the run completes.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

[ -s "$KERNEL" ] || skip_all "$KERNEL is missing (make image)"
[ -s "$INITRD" ] || skip_all "$INITRD is missing (make image)"

RUN=$FSM_TEST_RUNS/49-hardening-boot
rm -rf "$RUN" && mkdir -p "$RUN/disks"
truncate -s 256M "$RUN/disks/fsmtest0.img" "$RUN/disks/fsmtest1.img"
head -c 256M /dev/urandom >"$RUN/disks/fsmtest2.img"
snapshot "$RUN/disks/fsmtest2.img"
boot boot --disks 3 --size 256M --reuse --keep --no-select --timeout 600 \
	--plan "$FSM_ROOT/tests/plans/hardening.ini" --append "fsmatrix.disks=serial:fsmtest0,serial:fsmtest1"
expect_status "the run completes (exit 0)" 0
at() { printf 'select(.type == "cell" and .cell == "%s")' "$1"; }
for a in disk r0-c64k; do
	expect_record "$a: the fio cell times out and names the fio it killed" \
		"$(at "$a/ext4/defaults/hang") | .status == \"timeout\" and ([.warnings[] | select(test(\"left processes running when it timed out: fio [0-9]+\"))] | length == 1)"
	expect_record "$a: the cell after it runs ok on the same disks" \
		"$(at "$a/ext4/defaults/seq") | .status == \"ok\" and .result.bytes == 8388608"
done
expect_record "raid0 at the default resync: created, nothing waited on, resync_s 0" \
	"$(at r0-c64k/ext4/defaults/seq) | .axes.level == \"raid0\" and .resync_s == 0"
expect_record "the trailer counts 2 ok and 2 timeouts" \
	'select(.type == "trailer") | .cells == 4 and .counts.ok == 2 and .counts.timeout == 2'
sha256_unchanged "the disk that was not handed over is byte-identical" "$RUN/disks/fsmtest2.img"

boot label --disks 1 --size 256M --timeout 300 --plan "$FSM_ROOT/tests/boot/smoke.ini" \
	--append "fsmatrix.kernel=6.12"
expect_status "fsmatrix.kernel=6.12 on 6.1: the run completes (exit 0)" 0
expect_console "the name that is not the kernel running is dropped, on the console" \
	'^fsmatrix: kernels: fsmatrix.kernel=6.12, but the kernel running is 6\.1\.[^ ]+: the name is dropped'
expect_record "the smoke cell runs ok under 6.1" \
	'select(.type == "trailer") | .counts.ok >= 1'
check "no record carries axes.kernel 6.12" \
	bash -c '"$1" "$2/console.log" | jq -se "map(select(.type == \"cell\" or .type == \"warmup\")) | length > 0 and all(.[]; .axes.kernel != \"6.12\")" >/dev/null' _ "$RECORDS" "$RUN"

boot ram --disks 3 --size 256M --mem 512M --timeout 300 --plan "$FSM_ROOT/tests/plans/stripe-cache-ram.ini"
expect_status "stripe_cache_size beyond the RAM: the run completes (exit 0), no panic" 0
expect_record "the cell is an error saying the RAM cannot hold it, before it was written" \
	"$(cell r5-c64k/ext4/defaults/seq) | .status == \"error\" and (.error | test(\"refusing stripe_cache_size = 32768 over 3 members would pin ~448 MiB\"))"
