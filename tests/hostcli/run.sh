#!/bin/bash
# tests/hostcli/run.sh: the host CLI's own behaviour, outside the report formats: what the
# workload and html commands refuse to write to, what report and its kin refuse to read, and
# how every subcommand treats its arguments.
#
#   tests/hostcli/run.sh [FSMATRIX]     (FSMATRIX defaults to out/fsmatrix)
#
# One line per test, "ok - hostcli/NAME", "FAIL - hostcli/NAME: why" (then "#" lines of
# detail) or "skip - hostcli/NAME: why", as tests/run expects. Exit status 1 on failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
FSM=$(realpath "${1:-out/fsmatrix}")
TMP=$(mktemp -d)
LOOP=
cleanup() {
	[ -z "$LOOP" ] || losetup -d "$LOOP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

TIER=hostcli
. "$ROOT/tests/tier.sh"
detail() { sed 's/^/#   /' "$@" | head -n 10; }

# refused STATUS ARGS...: fsmatrix ARGS must exit with STATUS, print nothing on stdout and
# exactly one line on stderr. Returns 1 and appends why to $TMP/why when it did not.
refused() {
	local want=$1
	shift
	timeout 60 "$FSM" "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$? why=
	if [ "$rc" != "$want" ]; then
		why="exited with status $rc, not $want"
	elif [ -s "$TMP/out" ]; then
		why="wrote to stdout"
	elif [ "$(wc -l <"$TMP/err")" != 1 ]; then
		why="printed $(wc -l <"$TMP/err") lines on stderr, not one"
	else
		return 0
	fi
	{ echo "fsmatrix $*: $why"; sed 's/^/  /' "$TMP/err" | head -n 3; } >>"$TMP/why"
	return 1
}

# report NAME COUNT WHAT: one ok line, or one FAIL line naming how many cases failed.
report() {
	if [ -s "$TMP/why" ]; then
		fail "$1" "$(grep -c '^fsmatrix' "$TMP/why") of $2 cases failed"
		detail "$TMP/why"
	else
		ok "$1 ($3)"
	fi
	rm -f "$TMP/why"
}

# ------------------------------------------------------------------ help and unknown options
# Every subcommand the same way: --help and -h print its usage on stdout and exit 0; an
# unknown option is one line on stderr with a hint, and exit status 2.
n=0
for cmd in disks workload "workload seqwrite" report compare html check lava kcidb help; do
	for h in --help -h; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$FSM" $cmd $h >"$TMP/out" 2>"$TMP/err"
		rc=$?
		if [ "$rc" != 0 ] || [ -s "$TMP/err" ] || ! head -n 1 "$TMP/out" | grep -q "^usage: fsmatrix ${cmd%% *}"; then
			{ echo "fsmatrix $cmd $h: status $rc, want 0 and usage on stdout only"
			  head -n 2 "$TMP/out" "$TMP/err" | sed 's/^/  /'; } >>"$TMP/why"
		fi
	done
	n=$((n + 1))
	# shellcheck disable=SC2086
	if refused 2 $cmd --no-such-option && ! grep -q "try 'fsmatrix ${cmd%% *} --help'" "$TMP/err"; then
		{ echo "fsmatrix $cmd --no-such-option: no hint"; sed 's/^/  /' "$TMP/err"; } >>"$TMP/why"
	fi
done
for v in --version version; do
	n=$((n + 1))
	out=$("$FSM" $v 2>"$TMP/err")
	rc=$?
	if [ "$rc" != 0 ] || [ -s "$TMP/err" ] || ! printf '%s\n' "$out" | grep -Eqx 'fsmatrix [^ ]+'; then
		echo "fsmatrix $v: status $rc, printed \"$out\", want \"fsmatrix VERSION\"" >>"$TMP/why"
	fi
done
report help-and-options "$n" "--help, -h and an unknown option on every subcommand; --version"

# ------------------------------------------------------------------ workload targets
# Every workload kind pointed at a block device holding ext4 (by name and through a symlink)
# and at a character device must be refused before anything is written: the device's bytes
# stay the same.
if ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	skip workload-devices "losetup or mkfs.ext4 is missing"
elif ! truncate -s 64M "$TMP/disk.img" || ! mkfs.ext4 -q -F "$TMP/disk.img" ||
	! LOOP=$(losetup -f --show "$TMP/disk.img" 2>"$TMP/err"); then
	LOOP=
	skip workload-devices "no loop device: $(head -n 1 "$TMP/err")"
else
	ln -s "$LOOP" "$TMP/link"
	mkdir "$TMP/dir"
	tar -cf "$TMP/set.tar" -C "$TMP" dir
	printf '[r]\nrw=read\nsize=64k\n' >"$TMP/j.fio"
	before=$(sha256sum <"$LOOP")
	n=0
	for target in "$LOOP" "$TMP/link" /dev/null; do
		while read -r kind args; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			refused 2 workload $kind $args
		done <<-EOF
			seqwrite --size 1m $target
			seqwrite --size 1m --direct $target
			smallfiles --size 64k $target
			smallfiles --size 64k --passes 2 $target
			gen-tree --size 64k $target
			tar $TMP/set.tar $target
			tar $target $TMP/dir/untar
			seqread --size 1m $target
			fsync --size 64k --bs 4k $target
			fsync --size 64k --bs 4k --background 1m $target
			fio $TMP/j.fio $target
			fio $target $TMP/dir/fio
		EOF
	done
	after=$(sha256sum <"$LOOP")
	if [ "$before" != "$after" ]; then
		fail workload-devices "$LOOP was written to: sha256 ${before%% *} before, ${after%% *} after"
		detail "$TMP/why"
		rm -f "$TMP/why"
	else
		report workload-devices "$n" "block device, symlink to it, /dev/null: refused, device unchanged"
	fi
	# The targets that must go on working: a new file whose directory exists, an existing
	# regular file, a new or existing directory.
	good=1
	for args in "seqwrite --size 64k $TMP/new.dat" "seqwrite --size 64k --keep $TMP/new.dat" \
		    "seqwrite --size 64k $TMP/new.dat" "smallfiles --size 64k $TMP/tree" \
		    "gen-tree --size 64k $TMP/tree2" "tar $TMP/set.tar $TMP/untar" \
		    "seqread --size 64k $TMP/sr.dat" "fsync --size 64k --bs 4k $TMP/fs" \
		    "fsync --size 64k --bs 4k --background 1m $TMP/fs" "fio $TMP/j.fio $TMP/fio"; do
		# shellcheck disable=SC2086
		if ! "$FSM" workload $args >"$TMP/out" 2>"$TMP/err"; then
			fail workload-files "fsmatrix workload $args failed"
			detail "$TMP/err"
			good=0
		fi
	done
	[ "$good" = 0 ] || ok "workload-files (new and existing files and directories still work)"
fi

# ------------------------------------------------------------------ workload option values
# Sizes and counts outside what a plan accepts are refused the way plans refuse them.
n=0
while read -r args; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	refused 2 workload $args
done <<EOF
seqwrite --size 0 $TMP/v.dat
seqwrite --size 1 $TMP/v.dat
seqwrite --size 12q $TMP/v.dat
seqwrite --bs 0 $TMP/v.dat
seqwrite --bs 1g $TMP/v.dat
smallfiles --size 0 $TMP/v
smallfiles --files 0 $TMP/v
smallfiles --passes 0 $TMP/v
gen-tree --size 0 $TMP/v
EOF
report workload-values "$n" "zero and out-of-range sizes refused as plans refuse them"

# ------------------------------------------------------------------ smallfiles passes
# DIR/pass1 .. DIR/passN are names the command makes up: a symbolic link found there (to a
# directory outside DIR) is refused, not followed, and what it leads to is left alone.
n=0
for link in pass1 pass2; do
	n=$((n + 1))
	rm -rf "$TMP/passes" "$TMP/elsewhere"
	mkdir "$TMP/passes" "$TMP/elsewhere"
	echo keep >"$TMP/elsewhere/keep"
	ln -s "$TMP/elsewhere" "$TMP/passes/$link"
	timeout 60 "$FSM" workload smallfiles --size 64k --passes 2 "$TMP/passes" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" != 1 ] || ! grep -q "^fsmatrix: unable to .*$TMP/passes/$link.*symbolic link" "$TMP/err"; then
		{ echo "fsmatrix workload smallfiles --passes 2 with $link a symbolic link: status $rc"
		  sed 's/^/  /' "$TMP/err" | head -n 4; } >>"$TMP/why"
	fi
	if [ "$(ls -A "$TMP/elsewhere")" != keep ]; then
		echo "fsmatrix workload smallfiles: wrote in $TMP/elsewhere through $link" >>"$TMP/why"
	fi
done
report smallfiles-passes "$n" "a symbolic link at DIR/pass1 or DIR/pass2 refused, its target untouched"

# ------------------------------------------------------------------ html output
# -o never names a source (the log would be lost for a page), by name, through a symbolic
# link or a hard link, nor a device: each is refused before anything is read or written, and
# the source and the loop device keep their bytes. New and existing pages are still written.
cp tests/fixtures/report/run-a.jsonl "$TMP/src.jsonl"
ln -s src.jsonl "$TMP/src-link"
ln "$TMP/src.jsonl" "$TMP/src-hard"
src_before=$(sha256sum <"$TMP/src.jsonl")
[ -z "$LOOP" ] || dev_before=$(sha256sum <"$LOOP")
n=0
for out in /dev/null $LOOP "$TMP/src-link" "$TMP/src-hard" "$TMP/src.jsonl"; do
	n=$((n + 1))
	refused 2 html "$TMP/src.jsonl" -o "$out"
done
n=$((n + 1))
refused 2 html tests/fixtures/report/run-b.jsonl "$TMP/src.jsonl" -o "$TMP/src.jsonl"
if [ "$(sha256sum <"$TMP/src.jsonl")" != "$src_before" ]; then
	echo "fsmatrix html: $TMP/src.jsonl was written to" >>"$TMP/why"
fi
if [ -n "$LOOP" ] && [ "$(sha256sum <"$LOOP")" != "$dev_before" ]; then
	echo "fsmatrix html: $LOOP was written to" >>"$TMP/why"
fi
for out in "$TMP/page.html" "$TMP/page.html"; do
	n=$((n + 1))
	# status 4: run-a has a cell in error (the page is written all the same)
	"$FSM" html "$TMP/src.jsonl" -o "$out" >/dev/null 2>"$TMP/err"
	[ $? = 4 ] && grep -q '^<!DOCTYPE html>' "$out" ||
		{ echo "fsmatrix html -o $out: not written"; sed 's/^/  /' "$TMP/err"; } >>"$TMP/why"
done
report html-output "$n" "-o onto a source or a device${LOOP:+ ($LOOP)} refused, both unchanged"

# ------------------------------------------------------------------ sources
# A SOURCE is a file or a directory. A device never ends (/dev/urandom has line breaks, so
# the guard against an endless line never trips) and a FIFO blocks until a writer comes:
# every command that reads sources refuses them at once, saying what they are. A FIFO
# inside a results directory is passed over with a line, and the rest is read.
mkfifo "$TMP/fifo.jsonl"
n=0
for src in /dev/urandom /dev/zero "$TMP/fifo.jsonl"; do
	for cmd in report "compare tests/fixtures/report/run-a.jsonl" "html -o $TMP/x.html" "kcidb --origin lab"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		if refused 1 $cmd "$src" && ! grep -q "^fsmatrix: unable to read $src: it is a" "$TMP/err"; then
			{ echo "fsmatrix $cmd $src: not the reason"; sed 's/^/  /' "$TMP/err"; } >>"$TMP/why"
		fi
	done
done
mkdir "$TMP/results"
cp tests/fixtures/report/run-a.jsonl "$TMP/results/20260101-120000-a1a1a1.jsonl"
mkfifo "$TMP/results/20260102-120000-b2b2b2.jsonl"
n=$((n + 1))
timeout 60 "$FSM" report "$TMP/results" >"$TMP/out" 2>"$TMP/err"
rc=$?
# 4: run-a has a cell in error; a FIFO passed over is not a source that failed
if [ "$rc" != 4 ] || ! grep -q '^Run 20260101-120000-a1a1a1' "$TMP/out" ||
	! grep -q "unable to read $TMP/results/20260102-120000-b2b2b2.jsonl: it is a FIFO" "$TMP/err"; then
	{ echo "fsmatrix report $TMP/results (a FIFO beside a run): status $rc"; sed 's/^/  /' "$TMP/err"; } >>"$TMP/why"
fi
report sources "$n" "devices and FIFOs refused at once, a FIFO in a results folder passed over"

# ------------------------------------------------------------------ kcidb input
# Without a valid origin, or with a source that is no run: one line on stderr, and no
# document at -o, not even an empty one.
n=0
mkdir -p "$TMP/kc/empty"
echo "not a record" >"$TMP/kc/text.jsonl"
K=tests/fixtures/report/real-kernels.jsonl
while IFS='|' read -r want reason args; do
	n=$((n + 1))
	rm -f "$TMP/kc/doc.json"
	# shellcheck disable=SC2086
	if refused "$want" kcidb $args; then
		if ! grep -qF -- "$reason" "$TMP/err"; then
			{ echo "fsmatrix kcidb $args: not the reason \"$reason\""; sed 's/^/  /' "$TMP/err"; } >>"$TMP/why"
		elif [ -e "$TMP/kc/doc.json" ]; then
			echo "fsmatrix kcidb $args: wrote $TMP/kc/doc.json" >>"$TMP/why"
		fi
	fi
done <<EOF
2|--origin NAME is required|-o $TMP/kc/doc.json $K
2|--origin needs a value|$K --origin
2|"My-Lab" is not a KCIDB origin|--origin My-Lab -o $TMP/kc/doc.json $K
2|"lab:x" is not a KCIDB origin|--origin=lab:x $K
2|"" is not a KCIDB origin|--origin= $K
2|no SOURCE given|--origin lab -o $TMP/kc/doc.json
1|no records in $TMP/kc/text.jsonl|--origin lab -o $TMP/kc/doc.json $TMP/kc/text.jsonl
1|no results in $TMP/kc/empty|--origin lab -o $TMP/kc/doc.json $K $TMP/kc/empty
1|unable to read $TMP/kc/none: No such file|--origin lab -o $TMP/kc/doc.json $TMP/kc/none
1|refusing to write /dev/null|--origin lab -o /dev/null $K
EOF
# a document already at -o is left as it was when a source is bad
echo precious >"$TMP/kc/doc.json"
n=$((n + 1))
refused 1 kcidb --origin lab -o "$TMP/kc/doc.json" "$TMP/kc/text.jsonl" &&
	[ "$(cat "$TMP/kc/doc.json")" = precious ] || echo "fsmatrix kcidb: an existing -o file was changed" >>"$TMP/why"
# -o naming one of its own sources, by name or through a link: refused as html refuses it,
# the results file as it was
cp "$K" "$TMP/kc/run.jsonl"
ln -s run.jsonl "$TMP/kc/link.json"
for o in run.jsonl link.json; do
	n=$((n + 1))
	if refused 2 kcidb --origin lab -o "$TMP/kc/$o" "$K" "$TMP/kc/run.jsonl"; then
		grep -q "refusing to write $TMP/kc/$o: it is the source $TMP/kc/run.jsonl" "$TMP/err" ||
			{ echo "fsmatrix kcidb -o $o: not the reason"; sed 's/^/  /' "$TMP/err"; } >>"$TMP/why"
	fi
	cmp -s "$K" "$TMP/kc/run.jsonl" || echo "fsmatrix kcidb -o $o: the source was written over" >>"$TMP/why"
done
report kcidb-input "$n" "origin missing or not [a-z0-9_]+, no source, a source that is no run, -o a source: one line, nothing written"

# ------------------------------------------------------------------ lava
# A job that could destroy disks it does not name is never written: bare metal needs
# --select, and a mistake writes no job at all.
n=0
while read -r args; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	refused 2 lava rootfs/plans/default.ini -o "$TMP/jobs" $args
	if [ -e "$TMP/jobs" ]; then
		echo "fsmatrix lava $args: wrote $TMP/jobs" >>"$TMP/why"
		rm -rf "$TMP/jobs"
	fi
done <<EOF
--shards 2 --device-type x86
--shards 2 --device-type x86 --url http://lab/f
--shards 2 --device-type arm
--device-type qemu
--shards 0
--shards 1001
--shards 2 --select vdb,vd'c
--shards 2 --scale 0
--shards 2 --disks 0
EOF
# a plan under several kernels: the switches need a results partition no job deploys
n=$((n + 1))
refused 2 lava tests/plans/kernels.ini --shards 1 -o "$TMP/jobs"
if [ -e "$TMP/jobs" ]; then echo "fsmatrix lava kernels.ini: wrote $TMP/jobs" >>"$TMP/why"; rm -rf "$TMP/jobs"; fi
grep -q "kernels = 6.1, ...: a LAVA job boots one kernel" "$TMP/err" ||
	echo "fsmatrix lava kernels.ini: $(head -n 1 "$TMP/err")" >>"$TMP/why"
report lava-refused "$n" "no job for bare metal without --select, none on a mistake or for a plan under several kernels"

# What a job deploys, made from a stand-in image (tiny vmlinuz and initramfs.img): the
# initramfs with the plan appended as an uncompressed cpio segment holding /job/PLAN.ini,
# byte for byte the plan the job names by its sha256; a blank qcow2 disk of --disk-size; a
# sha256sum on every file a job deploys, with --url http too.
IMG=$TMP/img J=$TMP/lava-jobs
mkdir -p "$IMG"
printf 'kernel' >"$IMG/vmlinuz"
printf 'initramfs, 21 bytes\n\n' >"$IMG/initramfs.img"
plan=rootfs/plans/default.ini
n=0
lava_case() { # WHAT: a line in $TMP/why when the last command's condition failed
	n=$((n + 1))
	[ "$1" = ok ] || echo "fsmatrix lava: $1" >>"$TMP/why"
}
"$FSM" lava "$plan" --shards 2 --from "$IMG" --url http://lab.example/f --disk-size 2g \
	-o "$J" >"$TMP/out" 2>"$TMP/err"
lava_case "$([ $? = 0 ] && echo ok || echo "status $?: $(head -n 1 "$TMP/err")")"
urls=$(cat "$J"/*.yaml | grep -c ' url: ') sums=$(cat "$J"/*.yaml | grep -c ' sha256sum: [0-9a-f]\{64\}$')
lava_case "$([ "$urls" -gt 0 ] && [ "$urls" = "$sums" ] && echo ok || echo "$urls urls, $sums sha256sums")"
# the segment: after the image, padded to 4 bytes, a cpio whose /job/default.ini is the plan
off=$(( ($(stat -c %s "$IMG/initramfs.img") + 3) / 4 * 4 ))
mkdir -p "$TMP/unpacked"
(dd if="$J/default-initramfs.img" bs=1 skip="$off" status=none | (cd "$TMP/unpacked" && cpio -id 2>/dev/null))
lava_case "$(cmp -s "$TMP/unpacked/job/default.ini" "$plan" && cmp -s -n 21 "$IMG/initramfs.img" "$J/default-initramfs.img" && echo ok || echo "the initramfs does not carry the plan after the image")"
sha=$(sha256sum <"$plan" | cut -d' ' -f1)
lava_case "$(grep -q "fsmatrix.plan=/job/default.ini fsmatrix.plan_sha256=$sha " "$J/default-shard-1-of-2.yaml" && grep -q "fsmatrix.plan_sha256: '$sha'" "$J/default-shard-1-of-2.yaml" && echo ok || echo "the job does not name /job/default.ini and its sha256")"
lava_case "$(grep -q "sha256sum: $(sha256sum <"$J/default-initramfs.img" | cut -d' ' -f1)" "$J/default-shard-1-of-2.yaml" && echo ok || echo "the initramfs's sha256sum is not the file's")"
if command -v qemu-img >/dev/null; then
	lava_case "$(qemu-img check -q "$J/fsmtest.qcow2" && qemu-img info "$J/fsmtest.qcow2" | grep -q '^virtual size: 2 GiB' && echo ok || echo "fsmtest.qcow2 is no blank 2 GiB qcow2")"
fi
lava_case "$(grep -q "^# test disks: 3, each a copy of fsmtest.qcow2, a blank qcow2 image of 2g" "$J/default-shard-1-of-2.yaml" && echo ok || echo "the job does not describe its disks")"
# the default URL, file://$PWD/out: its files must be there, and the error names them
mkdir "$TMP/no-image"
(cd "$TMP/no-image" && "$FSM" lava "$ROOT/$plan" --shards 2 -o jobs) >"$TMP/out" 2>"$TMP/err"
rc=$?
lava_case "$([ "$rc" = 1 ] && grep -q '^fsmatrix: lava: unable to read out/vmlinuz: No such file or directory' "$TMP/err" && [ ! -e "$TMP/no-image/jobs/default-shard-1-of-2.yaml" ] && echo ok || echo "no image in ./out: status $rc, $(head -n 1 "$TMP/err")")"
# a symbolic link at a job's name, or at a file a job deploys: refused, its target untouched
for name in default-shard-2-of-2.yaml fsmtest.qcow2 default-initramfs.img; do
	rm -rf "$TMP/links" && mkdir "$TMP/links"
	echo precious >"$TMP/target"
	ln -s "$TMP/target" "$TMP/links/$name"
	"$FSM" lava "$plan" --shards 2 --from "$IMG" -o "$TMP/links" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	lava_case "$([ "$rc" = 1 ] && [ "$(cat "$TMP/target")" = precious ] && grep -q "refusing to write $TMP/links/$name: it is a symbolic link" "$TMP/err" && echo ok || echo "a link at $name: status $rc, $(head -n 1 "$TMP/err")")"
done
report lava-files "$n" "the plan carried in the initramfs with its sha256, a blank disk, sha256sum everywhere, links refused"

exit $failed
