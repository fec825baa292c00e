#!/bin/bash
# tests/check/run.sh: `fsmatrix check` on small plans, one line per case in tests/run's form
# ("ok - check/NAME" or "FAIL - check/NAME: why", then "#" lines of detail). The plans are
# written here, next to what is expected of them, so that each case reads as one row. Then
# golden files: the whole output for every shipped plan (rootfs/plans/) and every test plan
# (tests/plans/, the one with mistakes included), and with fewer disks or a scale.
#
#   tests/check/run.sh [--update] [FSMATRIX]     (FSMATRIX defaults to out/fsmatrix)
#
# --update rewrites tests/check/expected/ from the current output (review it with git diff).
# Runs from the repository root, so the plan paths in the outputs read the same everywhere.
set -u
GOLDEN_PREFIX=check GOLDEN_DIR=tests/check/expected
. "$(dirname "$0")/../golden.sh"

TIER=check
. "$(dirname "$0")/../tier.sh"
# a failed case shows what fsmatrix said on stderr
FAIL_DETAIL=$TMP/err

# run NAME ARGS...: fsmatrix check ARGS, its status in $rc, stdout in $TMP/out, stderr in $TMP/err.
run() {
	local name=$1
	shift
	# At most 1 MB kept: a plan with no cell limit once printed 2.8 GB.
	timeout 60 "$FSM" check "$@" 2>"$TMP/err" | head -c 1000000 >"$TMP/out"
	rc=${PIPESTATUS[0]}
}

# has FILE REGEX: FILE has a line matching REGEX.
has() { grep -Eq -- "$2" "$1"; }

# A raid0 over N devices, the simplest plan an array of N disks gives.
raid0() {
	printf '[array a]\nlevel = 0\ndevices = %s\n[fs f]\ntype = ext4\n' "$1"
	printf '[workload w]\ntype = seqwrite\nsize = 1m\n'
}

# Every device count a plan allows runs, and the disks are named as the kernel names virtio
# disks: vdb (vda is the results disk) ... vdz, vdaa, vdab, ...
bad=
for n in $(seq 1 32); do
	if [ "$n" = 1 ]; then
		printf '[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n' >"$TMP/p.ini"
	else
		raid0 "$n" >"$TMP/p.ini"
	fi
	run devices "$TMP/p.ini"
	if [ "$rc" != 0 ]; then
		bad="$bad $n (status $rc)"
	elif grep -q 'vd[^a-z ]' "$TMP/out"; then
		bad="$bad $n (a disk name outside a-z)"
	fi
done
raid0 32 >"$TMP/p.ini"
run devices "$TMP/p.ini"
if [ -n "$bad" ]; then
	fail devices-1-to-32 "failed for:$bad"
elif ! has "$TMP/out" '^test disks assumed: /dev/vdb .* /dev/vdz /dev/vdaa .* /dev/vdag$'; then
	fail devices-1-to-32 "32 disks are not vdb ... vdz, vdaa ... vdag"
	grep '^test disks' "$TMP/out" | sed 's/^/#   /'
else
	ok devices-1-to-32
fi

# refused CASE WANT: the check just run refused its plan (status 1) with exactly WANT on stderr.
refused() {
	if [ "$rc" != 1 ]; then
		fail "$1" "status $rc, want 1"
	elif [ "$(cat "$TMP/err")" != "$2" ]; then
		fail "$1" "stderr differs; want: $2"
	else
		ok "$1"
	fi
}
# errors CASE WANT PLAN-TEXT: check refuses the plan (status 1) with exactly WANT on stderr.
errors() {
	printf '%b' "$3" >"$TMP/p.ini"
	run "$1" "$TMP/p.ini"
	refused "$1" "$2"
}
P=$TMP/p.ini
errors empty-file "$P:1: the plan is empty: it needs an [array NAME], an [fs NAME] and a [workload NAME] section" ''
errors only-comments "$P:2: the plan holds only comments and blank lines: it needs an [array NAME], an [fs NAME] and a [workload NAME] section" '# to do\n\n'
errors global-only "$P:2: no [array NAME], [fs NAME] or [workload NAME] section: a plan needs at least one of each (level = none for a raw disk)" '[global]\nrepeat = 2\n'
errors duplicate-after-bad "$P:2: level: expected none, 0, 1, 4, 5, 6, 10, btrfs-single, btrfs-raid0, btrfs-raid1, btrfs-raid1c3, btrfs-raid10, btrfs-raid5, btrfs-raid6, lvm-linear, lvm-striped, lvm-raid1, lvm-raid5, lvm-raid6 or lvm-raid10 (level = nine)
$P:3: duplicate key \"level\" in [array a] (first at line 2)" '[array a]\nlevel = nine\nlevel = 0\ndevices = 2\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n'
# Records are JSON: a value in another encoding would make them unreadable.
errors not-utf8 "$P:4: not UTF-8 text (byte 0xff at column 16): save the plan as UTF-8" '[array a]\nlevel = none\n[fs f]\nmount = noatime\xff\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n'
errors long-mount-line "$P:4: mount: options are one word, separated by commas (mount = noatime,noatime,noatime,noatime,noatime,...)" "[array a]\\nlevel = none\\n[fs f]\\nmount = $(printf 'noatime,%.0s' $(seq 50)) x\\ntype = ext4\\n[workload w]\\ntype = seqwrite\\nsize = 1m\\n"
# Cell ids are unique: an array whose name is another's name with its chunk part would give
# cells of one id, and the report one row for two arrays.
errors id-clash "$P:5: [array a-c64k]: its cells' ids (a-c64k/...) are also those of [array a] (line 1): rename one" '[array a]\nlevel = 0\ndevices = 2\nchunk = 64k\n[array a-c64k]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n'
errors id-clash-tunable "$P:5: [array r5-scs4096]: its cells' ids (r5-scs4096/...) are also those of [array r5] (line 1): rename one" '[array r5]\nlevel = 5\ndevices = 3\nstripe_cache_size = 256, 4096\n[array r5-scs4096]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n'
# Kernel tunables: a key must fit the array (md's stripe cache is raid4/5/6's alone), its
# values the kernel's range, and a pair the kernel keeps one of is refused together.
TW='[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n'
errors tunable-raid0 "$P:4: [array a]: \"stripe_cache_size\" does not apply to raid0 (only to raid4, raid5 or raid6)" "[array a]\\nlevel = 0\\ndevices = 2\\nstripe_cache_size = 4096\\n$TW"
errors tunable-raw-disk "$P:3: [array a]: \"stripe_cache_size\" does not apply to level none (only to raid4, raid5 or raid6)" "[array a]\\nlevel = none\\nstripe_cache_size = 4096\\n$TW"
errors tunable-range "$P:4: stripe_cache_size: \"16\": expected a whole number from 17 to 32768 (stripe_cache_size = 256, 16)" "[array a]\\nlevel = 5\\ndevices = 3\\nstripe_cache_size = 256, 16\\n$TW"
errors tunable-scheduler "$P:3: scheduler: \"cfq\": expected none, mq-deadline, bfq or kyber (scheduler = cfq)" "[array a]\\nlevel = none\\nscheduler = cfq\\n$TW"
errors tunable-pair "$P:4: [array a]: \"dirty_bytes\" and \"dirty_ratio\" exclude each other (the kernel keeps one: writing either zeroes the other)" "[array a]\\nlevel = none\\ndirty_ratio = 10\\ndirty_bytes = 64m\\n$TW"
# A list makes one array per value, named in the cell id; what the cell writes is shown.
printf '[array r5]\nlevel = 5\ndevices = 3\nstripe_cache_size = 256, 4096\nscheduler = bfq\n%b' "$TW" >"$P"
run tunable-variants "$P"
if [ "$rc" = 0 ] && has "$TMP/out" '^cell 2/2  r5-scs4096/f/defaults/w  rep 1$' &&
	has "$TMP/out" '^  tunables  md0 and each member: scheduler=bfq; md0: stripe_cache_size=4096$'; then
	ok tunable-variants
else
	fail tunable-variants "status $rc; want 2 cells, r5-scs4096 the second, its tunables shown"
fi

# fio's engine, inline or in options, is screened by one rule: exec and external ones run
# or load a program, which fio's confinement has none of.
FW='[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = fio\nrw = write\nsize = 1m\n'
FWHY="runs or loads a program: fio runs confined to the cell's mount, with no program but itself"
errors fio-engine-options "$P:9: [workload w]: ioengine=exec $FWHY" "${FW}options = --ioengine=exec\n"
errors fio-engine-inline "$P:9: [workload w]: ioengine=exec $FWHY" "${FW}ioengine = exec\n"
errors fio-engine-external "$P:9: [workload w]: ioengine=external:/x.so $FWHY" "${FW}ioengine = external:/x.so\n"
errors fio-engine-path "$P:9: [workload w]: ioengine=./x.so $FWHY" "${FW}ioengine = ./x.so\n"

# md's stripe cache is pinned memory: 32768 entries of a page per member over 3 members
# (~448 MiB) is more than half of a 512m machine, which the boot refuses; 4096 is not.
printf '[array r5]\nlevel = 5\ndevices = 3\nstripe_cache_size = 4096, 32768\n%b' "$TW" >"$P"
run stripe-cache-ram "$P" --mem 512m
if [ "$rc" = 0 ] && has "$TMP/err" "^$P:4: warning: \\[array r5\\] stripe_cache_size = 32768 over 3 members would pin ~448 MiB of memory \\(each entry a 4 KiB page and ~0.5 KiB of md's own per member\\), more than half of the 512 MiB of RAM: the boot refuses its cells \\(error records\\)" &&
	[ "$(grep -c stripe_cache "$TMP/err")" = 1 ] && has "$TMP/out" '^2 cells, 2 warnings, 0 errors'; then
	ok stripe-cache-ram
else
	fail stripe-cache-ram "status $rc; want one warning for 32768 on 3 members in 512m"
fi

# A workload larger than the filesystem its array leaves ends as ENOSPC: with --disk-size,
# check says so. 2x ram of 1g is 2g, 1g does not fit either on a 256m disk; 100m does.
printf '[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload big]\ntype = seqwrite\nsize = 2x ram\n[workload onegig]\ntype = seqwrite\nsize = 1g\n[workload fits]\ntype = seqwrite\nsize = 100m\n' >"$P"
run disk-too-small "$P" --disk-size 256m --mem 1g
if [ "$rc" = 0 ] && has "$TMP/err" "^$P:5: warning: \\[workload big\\] seqwrite of 2g does not fit in the ~2[0-9][0-9]m free on \\[array a\\] with \\[fs f\\] \\(1 data disk of 256m\\): its cells will end as errors \\(No space left on device\\)$" &&
	has "$TMP/err" "^$P:8: warning: \\[workload onegig\\] seqwrite of 1g does not fit" &&
	[ "$(grep -c 'does not fit' "$TMP/err")" = 2 ]; then
	ok disk-too-small
else
	fail disk-too-small "status $rc; want a warning for 2x ram and 1g on a 256m disk, none for 100m"
fi
run disk-size-unknown "$P" --mem 1g
if [ "$rc" = 0 ] && ! grep -q 'does not fit' "$TMP/err"; then
	ok disk-size-unknown
else
	fail disk-size-unknown "status $rc; without --disk-size no fit is judged"
fi

# xfs under 300 MiB: mkfs.xfs 6.1 refuses it, so check warns with --disk-size (once per fs,
# naming the first array too small), and not for an array of two disks' worth or ext4
printf '[array disk]\nlevel = none\n[array r0]\nlevel = 0\ndevices = 2\n[fs x]\ntype = xfs\n[fs e]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 16m\n' >"$P"
run xfs-small "$P" --disks 2 --disk-size 256m
if [ "$rc" = 0 ] && has "$TMP/err" "^$P:6: warning: \\[fs x\\] xfs on the ~256m of \\[array disk\\] \\(disks of 256m\\): mkfs.xfs refuses a filesystem under 300 MiB, its cells will end as errors$" &&
	[ "$(wc -l <"$TMP/err")" = 1 ] && has "$TMP/out" '^4 cells, 1 warnings, 0 errors'; then
	ok xfs-small
else
	fail xfs-small "status $rc; want one warning for xfs on the 256m disk"
fi
run xfs-big-enough "$P" --disks 2 --disk-size 300m
if [ "$rc" = 0 ] && ! grep -q 'mkfs.xfs refuses' "$TMP/err"; then
	ok xfs-big-enough
else
	fail xfs-big-enough "status $rc; a 300m disk holds an xfs"
fi

# A thin volume larger than its pool: with --disk-size, check refuses it (status 1) by the
# rule the boot refuses each such cell with (core/model/layer.c), at the layer's size line
printf '[layer pool]\ntype = thin\nsize = 1g\n[array disk]\nlevel = none\nlayers = none, pool\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 16m\n' >"$P"
run thin-over-pool "$P" --disks 1 --disk-size 256m
if [ "$rc" = 1 ] && [ "$(cat "$TMP/err")" = "$P:3: [layer pool] on [array disk] (~256m, disks of 256m): thin volume of 2097152 sectors does not fit the pool's 520192 (4096 sectors of metadata): over-provisioning is refused (no thin volume larger than its pool), and the boot would end each of its cells as an error" ] &&
	has "$TMP/out" '^2 cells, 0 warnings, 1 errors'; then
	ok thin-over-pool
else
	fail thin-over-pool "status $rc; want 1 and the pool's rule on stderr"
fi
run thin-in-pool "$P" --disks 1 --disk-size 2g
if [ "$rc" = 0 ] && [ ! -s "$TMP/err" ]; then
	ok thin-in-pool
else
	fail thin-in-pool "status $rc; 1g fits the pool of a 2g disk"
fi

# kernels = : a plan beside a kernels/ folder, as on the stick (fsmatrix/plan.ini and
# fsmatrix/kernels/NAME/), has each set looked for there; one not found is warned about.
mkdir -p "$TMP/stick/kernels/6.1"
touch "$TMP/stick/kernels/6.1/vmlinuz" "$TMP/stick/kernels/6.1/initramfs.img"
printf '[global]\nkernels = 6.1, nonexistent\nwarmup = 0\n[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n' >"$TMP/stick/plan.ini"
run kernels-missing "$TMP/stick/plan.ini"
if [ "$rc" = 0 ] && has "$TMP/err" "^$TMP/stick/plan.ini:2: warning: kernels = nonexistent: unable to read $TMP/stick/kernels/nonexistent/vmlinuz: No such file or directory: the boot refuses the plan unless the results partition holds the set as fsmatrix/kernels/nonexistent/" &&
	[ "$(grep -c 'warning: kernels' "$TMP/err")" = 1 ]; then
	ok kernels-missing
else
	fail kernels-missing "status $rc; want one warning, for the set nonexistent"
fi

# Only a regular file is a plan: a FIFO would block check until a writer came.
mkfifo "$TMP/fifo.ini"
run fifo "$TMP/fifo.ini"
refused fifo "$TMP/fifo.ini:0: unable to read: it is a FIFO, not a regular file"
run device /dev/zero
refused device "/dev/zero:0: unable to read: it is a character device, not a regular file"

# A matrix past the cell limit is refused at once, with the factors it multiplies up from.
{
	printf '[global]\nrepeat = 1000\n'
	for a in $(seq 16); do
		printf '[array a%s]\nlevel = 0\ndevices = 2\nchunk = 4k' "$a"
		for c in 8k 16k 32k 64k 128k 256k 512k 1m 2m 4m 8m 16m 32m 64m 128m; do printf ', %s' $c; done
		printf '\n'
	done
	for f in $(seq 16); do
		printf '[fs f%s]\ntype = ext4\n' "$f"
		for m in $(seq 16); do printf 'mount = commit=%s\n' "$m"; done
	done
	for w in $(seq 16); do printf '[workload w%s]\ntype = seqwrite\nsize = 1m\n' "$w"; done
} >"$P"
lines=$(wc -l <"$P")
run cell-limit "$P"
want="$P:$lines: the matrix has 1048576000 cells (16 arrays x 16 chunks x 16 fs x 16 mounts x 16 workloads x repeat 1000), over the limit of 10000"
if [ "$rc" != 1 ] || [ "$(cat "$TMP/err")" != "$want" ] || [ -s "$TMP/out" ]; then
	fail cell-limit "status $rc, $(wc -c <"$TMP/out") bytes of output; want status 1 and: $want"
else
	ok cell-limit
fi

# The estimate with the disks of a server (docs/plans.md, "Time estimate"), each share
# computed here from the formula: a raid5 of 12 x 4 TiB at 200 MB/s resyncs a member at
# min(200 MB/s, 200000 KiB/s); mkfs writes ext's inode tables (44 TiB is mke2fs's "huge":
# 65536 bytes per 256-byte inode) and ext3/4's journal (1 GiB past 128 GiB), xfs its log
# (fs / 2048, at most 2 GiB), at the 11 data members' rate, after a constant 0.4 s; with
# reuse = array each repetition's first cell alone pays the resync.
run estimate-12disk rootfs/plans/ext-vs-xfs-12disk.ini --mem 1G --disk-size 4T --disk-mbps 200
secs() { awk -v s="$1" 'BEGIN { t = int(s + 0.5); if (t >= 3600) printf "%dh%02dm", t / 3600, (t / 60) % 60;
	else if (t >= 60) printf "%dm%02ds", t / 60, t % 60; else printf "%ds", t }'; }
f=$(awk 'BEGIN { tib = 2^40; disk = 4 * tib; mbps = 200e6; cap = 200000 * 1024; fs = 11 * disk
	rate = (mbps < cap ? mbps : cap); itab = fs / 65536 * 256; w = 11 * mbps
	printf "%.3f %.3f %.3f %.3f %.3f", disk / rate, 0.4 + itab / w, 0.4 + (itab + 2^30) / w,
		0.4 + 2 * 2^30 / w, 3 * disk / rate }')
read -r resync mkfs2 mkfs4 mkfsx resync3 <<<"$f"
mk12=$(awk -v a="$mkfs2" -v b="$mkfs4" -v c="$mkfsx" 'BEGIN { printf "%.3f", 3 * (a + 2 * b + c) }')
want1="  estimate  ~.*: resync $(secs "$resync"), mkfs $(secs "$mkfs2"), workload [0-9]+s\$"
want3="  estimate  ~.*: mkfs $(secs "$mkfs4"), workload [0-9]+s, takes over the array before it \\(no create, no resync\\)\$"
want4="  estimate  ~.*: mkfs $(secs "$mkfsx"), workload [0-9]+s, takes over the array before it"
wantt="^  resync ~$(secs "$resync3") \\(3 arrays created\\), mkfs ~$(secs "$mk12") \\(12 filesystems\\), "
if [ "$rc" = 0 ] && [ "$(grep -Ec "$want1" "$TMP/out")" = 3 ] && [ "$(grep -Ec "$want3" "$TMP/out")" = 6 ] &&
	[ "$(grep -Ec "$want4" "$TMP/out")" = 3 ] && has "$TMP/out" "$wantt" &&
	has "$TMP/out" '^machine: 1g of RAM; test disks of 4t at 200 MB/s$' &&
	has "$TMP/out" '^  workload  seqwrite 2g in 1m blocks, random data; size 2x ram$' &&
	has "$TMP/out" '^  cells 5-8: r5-c64k, rep 2, each with its own mkfs$' &&
	has "$TMP/err" 'warning: \[fs ext3\] ext3 cannot span the 44t of array r5'; then
	ok estimate-12disk
else
	fail estimate-12disk "status $rc; want resync $(secs "$resync") (3 x $(secs "$resync3")), mkfs ext2 $(secs "$mkfs2"), ext3/4 $(secs "$mkfs4"), xfs $(secs "$mkfsx"), in all $(secs "$mk12")"
	grep -E '^  estimate|^  resync' "$TMP/out" | head -n 6 | sed 's/^/#   /'
fi

# --mem says what 2x ram and the page-cache warning take; without it, check says it assumed.
run estimate-mem rootfs/plans/default.ini --mem 64g
if [ "$rc" = 0 ] && has "$TMP/out" '^machine: 64g of RAM; test disks of 1g assumed \(--disk-size\) at the rates measured under qemu TCG \(--disk-mbps\)$' &&
	has "$TMP/err" '^rootfs/plans/default.ini:[0-9]+: warning: \[workload seq\] seqwrite of 512m is smaller than the 64g of RAM: it will mostly measure the page cache'; then
	ok estimate-mem
else
	fail estimate-mem "status $rc, no machine line or no page-cache warning"
fi

# A run estimated past a day is warned about, and still checked; so is its cell, past the
# cell timeout (30m by default).
printf '[global]\nrepeat = 10\n[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1t\n' >"$P"
run long-run "$P"
if [ "$rc" = 0 ] && has "$TMP/err" "^$P:9: warning: the run is estimated at ~[0-9]+h[0-9]+m, over 24 hours" &&
	has "$TMP/err" "^$P:9: warning: cell 1 is estimated at ~[0-9]+h[0-9]+m besides any resync, over timeout = 30m00s" &&
	has "$TMP/out" '^10 cells, 2 warnings, 0 errors'; then
	ok long-run-warning
else
	fail long-run-warning "status $rc, no warning"
fi

# Fewer disks than an array needs: its cells are listed as skipped, with the reason /init
# records for them, and the plan is fine (status 0).
printf '[array r5]\nlevel = 5\ndevices = 3\n[array one]\nlevel = none\n[fs f]\ntype = ext4\n[workload w]\ntype = seqwrite\nsize = 1m\n' >"$P"
run disks-short --disks 2 "$P"
if [ "$rc" != 0 ]; then
	fail disks-short "status $rc, want 0"
elif ! has "$TMP/out" '^  skipped   \[array r5\] needs 3 test disks, 2 taken$'; then
	fail disks-short "no skipped line for the raid5 cell"
elif ! has "$TMP/out" '^  mkfs      mkfs.ext4 .* /dev/vdb$'; then
	fail disks-short "the cell on one disk is not listed"
elif ! has "$TMP/out" '^2 cells \(1 skipped\), 0 warnings, 0 errors'; then
	fail disks-short "the summary does not count the skipped cell"
	tail -n 2 "$TMP/out" | sed 's/^/#   /'
else
	ok disks-short
fi

# A search over eight sets probes at most five of them (the ends, then three halvings): the
# estimate is its cell under five sets, not the matrix under all eight.
sed 's/^kernels = .*/kernels = b1, b2, b3, b4, b5, b6, b7, b8/; s/^bad = b4/bad = b8/' \
	tests/plans/bisect.ini >"$TMP/bisect8.ini"
run bisect-estimate "$TMP/bisect8.ini" --disks 1
whole=$(sed -n '/^  the whole matrix: /{s/ (/\n(/g; p}' "$TMP/out" | grep -o '~[0-9]*s' | tr -d '~s' | awk '{ s += $1 } END { print s }')
hi=$(sed -n 's/^bisect: at most 5 probes of disk\/ext4\/defaults\/seq .* to ~\([0-9]*\)s (none stable.*/\1/p' "$TMP/out")
if [ "$rc" = 0 ] && [ -n "$whole" ] && [ -n "$hi" ] && [ "$hi" -lt "$whole" ]; then
	ok "bisect-estimate (5 probes of 8 sets: ~${hi}s at most, the whole matrix ~${whole}s)"
else
	fail bisect-estimate "status $rc; want 'at most 5 probes' with an estimate below the whole matrix's"
	sed 's/^/#   /' "$TMP/out" | grep -E "bisect|whole" | head -n 4
fi

# A mount option the image's kernel removed: a warning naming the line, and the plan runs.
printf '[array a]\nlevel = none\n[fs f]\ntype = ext4\nmount = noatime\nmount = data=writeback,nobh\n[workload w]\ntype = seqwrite\nsize = 1m\n' >"$P"
run removed-option "$P"
if [ "$rc" = 0 ] && has "$TMP/err" "^$P:6: warning: mount option nobh was removed from ext4 \(the image's kernel 6\.1 ignores it" &&
	[ "$(wc -l <"$TMP/err")" = 1 ] && has "$TMP/out" '^2 cells, 1 warnings, 0 errors'; then
	ok removed-option
else
	fail removed-option "status $rc; want status 0, one warning for line 6, counted"
fi

# A plan saved by Windows Notepad: a UTF-8 byte-order mark and CRLF line ends.
printf '\xef\xbb\xbf[array a]\r\nlevel = none\r\n[fs f]\r\ntype = ext4\r\n[workload w]\r\ntype = seqwrite\r\nsize = 1m\r\n' >"$P"
run notepad-bom "$P"
if [ "$rc" = 0 ] && has "$TMP/out" '^plan p .*: 1 cells'; then
	ok notepad-bom
else
	fail notepad-bom "status $rc"
fi

# The order cells run in is the order check lists them in. "ID REP" per cell, from $TMP/out:
cell_order() { sed -n 's/^cell [0-9]*\/[0-9]*  \(.*\)  rep \([0-9]*\)$/\1 \2/p' "$TMP/out"; }
O3='[array a]\nlevel = none\n[fs f]\ntype = ext4\n[workload w1]\ntype = seqwrite\nsize = 1m\n[workload w2]\ntype = seqwrite\nsize = 1m\n[workload w3]\ntype = seqwrite\nsize = 1m\n'
printf "[global]\nrepeat = 2\n$O3" >"$P"
run order-interleave "$P"
cell_order >"$TMP/interleave"
printf "[global]\nrepeat = 2\norder = sequential\n$O3" >"$P"
run order-sequential "$P"
if [ "$rc" = 0 ] && has "$TMP/out" '^order sequential: each cell.s repetitions back to back; warmup 1 ' &&
	[ "$(cell_order | tr '\n' ,)" = "a/f/defaults/w1 1,a/f/defaults/w1 2,a/f/defaults/w2 1,a/f/defaults/w2 2,a/f/defaults/w3 1,a/f/defaults/w3 2," ]; then
	ok order-sequential
else
	fail order-sequential "status $rc, or not each cell's repetitions back to back"
	cell_order | sed 's/^/#   /'
fi
# A shuffle's seed from the plan or from --seed (fsmatrix.seed=) lists the same order: the
# same cells as interleave, each repetition permuted.
printf "[global]\nrepeat = 2\norder = shuffle\nseed = 2\n$O3" >"$P"
run order-shuffle "$P"
cell_order >"$TMP/seeded"
printf "[global]\nrepeat = 2\norder = shuffle\n$O3" >"$P"
run order-shuffle-flag --seed 2 "$P"
cell_order >"$TMP/flag"
if [ "$rc" = 0 ] && has "$TMP/out" "^order shuffle, seed 2: each repetition's cells permuted; warmup 1 " &&
	cmp -s "$TMP/seeded" "$TMP/flag" && ! cmp -s "$TMP/seeded" "$TMP/interleave" &&
	[ "$(sort "$TMP/seeded")" = "$(sort "$TMP/interleave")" ]; then
	ok order-shuffle-seed
else
	fail order-shuffle-seed "status $rc, or --seed 2 and seed = 2 list different orders, or the cells differ"
fi
run order-shuffle-unseeded "$P"
if [ "$rc" = 0 ] && has "$TMP/out" '^order shuffle, seed drawn at boot .*: listed unshuffled' &&
	[ "$(cell_order)" = "$(cat "$TMP/interleave")" ]; then
	ok order-shuffle-unseeded
else
	fail order-shuffle-unseeded "status $rc, or no word that the seed is drawn at boot"
fi
run order-bad-seed --seed 9007199254740992 "$P"
refused_usage() {
	if [ "$rc" = 2 ] && [ "$(cat "$TMP/err")" = "$2" ]; then ok "$1"; else fail "$1" "status $rc, want 2 and: $2"; fi
}
refused_usage order-bad-seed "fsmatrix: check: --seed 9007199254740992: expected a whole number from 0 to 9007199254740991"

# Golden files. Every plan, as a user would check it: a plan added without its expected file
# fails until --update writes one.
for p in rootfs/plans/*.ini tests/plans/*.ini; do
	n=$(basename "$p" .ini)
	golden "plan-$n" "$n.txt" check "$p"
done
# The table of variants: name, expected file, arguments. Fewer disks than an array needs
# lists its cells as skipped; more disks than needed are assumed but not used.
golden default-disks-1   default-disks-1.txt   check rootfs/plans/default.ini --disks 1
golden default-disks-2   default-disks-2.txt   check rootfs/plans/default.ini --disks 2
golden default-disks-8   default-disks-8.txt   check rootfs/plans/default.ini --disks 8
golden default-scale     default-scale.txt     check rootfs/plans/default.ini --scale 0.25
golden raid6-disks-1     raid6-disks-1.txt     check rootfs/plans/raid6-degraded-ext3-vs-ext4.ini --disks 1
golden resync-disks-3    resync-disks-3.txt    check tests/plans/matrix-resync.ini --disks 3
golden stripes-disks-2   stripes-disks-2.txt   check tests/plans/matrix-stripes.ini --disks 2
golden loss-disks-1      loss-disks-1.txt      check tests/plans/disk-loss.ini --disks 1
golden disks-zero        disks-zero.txt        check rootfs/plans/default.ini --disks 0
golden disks-65          disks-65.txt          check rootfs/plans/default.ini --disks 65
# Split over machines (fsmatrix.shard=K/N): each shard's cells and time; more shards than
# cells leaves the last ones empty.
golden default-shards-2  default-shards-2.txt  check rootfs/plans/default.ini --shards 2 --scale 0.05
golden raid6-shards-3    raid6-shards-3.txt    check rootfs/plans/raid6-degraded-ext3-vs-ext4.ini --shards 3
golden smoke-shards-3    smoke-shards-3.txt    check tests/boot/smoke.ini --shards 3
# repeat = auto: the cells to repeat_max, and the estimate from every cell stable after 3
# repeats to none stable before the bound.
printf "[global]\nrepeat = auto\nrepeat_max = 6\n$O3" >"$P"
run repeat-auto "$P"
if [ "$rc" = 0 ] && has "$TMP/out" '^plan p .*: at most 18 cells \(3 per repetition x repeat = auto: each cell until its figure is stable, 3 to 6 times\)$' &&
	has "$TMP/out" '^at most 18 cells, 0 warnings, 0 errors; estimated ~[0-9ms]+ \(every cell stable after 3 repetitions\) to ~[0-9ms]+ \(none stable before repeat_max 6\) plus boot$' &&
	[ "$(cell_order | tail -n 1)" = "a/f/defaults/w3 6" ]; then
	ok repeat-auto
else
	fail repeat-auto "status $rc, or no bound in the heading and the estimate"
	sed -n '1p;$p' "$TMP/out" | sed 's/^/#   /'
fi
# A shuffle replayed from its seed, as fsmatrix.seed=2 runs it (boot test 36-order-warmup).
golden order-seed-2      order-seed-2.txt      check tests/plans/order.ini --seed 2
golden estimate-12disk   estimate-12disk.txt   check rootfs/plans/ext-vs-xfs-12disk.ini --mem 1G --disk-size 4T --disk-mbps 200

[ "$golden_failed" = 0 ] || failed=1
exit $failed
