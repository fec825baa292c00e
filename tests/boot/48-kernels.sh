# 48-kernels: one run under two kernel sets of `make kernels` (tests/plans/kernels.ini:
# kernels = 6.1, 6.12, one cell, repeat = 2). qemu/run --kernels puts both sets on the
# results partition and boots 6.1; PID 1 switches by kexec_file_load at the repetition
# boundaries, so that the cells go 6.1 | 6.12 6.12 | 6.1, each under its own kernel (the
# header of its boot names that kernel's release). A power cut right after the first switch
# is resumed: the boot after it comes up under 6.1 again, switches back to 6.12, and the run
# ends with every position recorded once. `compare --by kernel` then compares the cell under
# 6.1 with itself under 6.12. A disk not handed over is byte-identical afterwards. A kernel
# that never starts is switched to as often as the plan's retries allow, then given up; a
# fsmatrix.kernel= that is not the kernel running is dropped, and nothing runs under it.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

for k in 6.1 6.12; do
	for f in vmlinuz initramfs.img; do
		[ -s "$FSM_ROOT/out/kernels/$k/$f" ] || skip_all "out/kernels/$k/$f is missing (make kernels)"
	done
done
PLAN=$FSM_ROOT/tests/plans/kernels.ini

# 1 GiB test disks. (On 256 MiB, ext4 with 1 KiB blocks, 6.12 failed cells with write I/O
# errors until qemu/run wrote each image's first block before qemu opened it: boot/50 and
# docs/image.md.)
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-run
rm -rf "$RUN" && mkdir -p "$RUN/disks"
truncate -s 1G "$RUN/disks/fsmtest0.img"
head -c 64M /dev/urandom >"$RUN/disks/fsmtest1.img"
truncate -s 1G "$RUN/disks/fsmtest1.img"
snapshot "$RUN/disks/fsmtest1.img"
flags=(--reuse --keep --no-select --disks 2 --size 1G --plan "$PLAN" --kernels "6.1 6.12"
	--append "fsmatrix.disks=serial:fsmtest0")
KERNEL=6.1 INITRD=$FSM_ROOT/out/kernels/6.1/initramfs.img
# killed as soon as the switch is said (KILL_AFTER=0): the kexec'd 6.12 reaches /init about
# 2 s later and its first cell 3 s later on a fast host, so a fixed 5 s let it start cell 2
# there, and the cut fell in the middle of the cell instead of right after the switch
KILL_AFTER=0 boot_killed run 'switching to kernel 6.12' --timeout 600 "${flags[@]}"
check "a power cut right after the first switch to 6.12" test "$KILLED" = yes
boot run --timeout 900 "${flags[@]}"
expect_status "the resumed boot completes the run (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "the results partition carries both sets in fsmatrix/kernels/" bash -c '
	for k in 6.1 6.12; do for f in vmlinuz initramfs.img; do
		mcopy -n -i "$1/results.img@@1048576" "::fsmatrix/kernels/$k/$f" - 2>/dev/null |
			cmp -s - "$2/out/kernels/$k/$f" || { echo "fsmatrix/kernels/$k/$f is not out/kernels/$k/$f"; exit 1; }
	done; done' _ "$RUN" "$FSM_ROOT"
check "the repetitions interleave the kernels A B B A, each position recorded once, ok" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.index):\(.rep):\(.axes.kernel):\(.status)"] | join(",")' "$j")" \
	= "1:1:6.1:ok,2:1:6.12:ok,3:2:6.12:ok,4:2:6.1:ok"
check "cell ids name their kernel" test "$(jq -r -s '[.[] | select(.type == "cell") | .cell] | unique | join(",")' "$j")" \
	= "disk/ext4/defaults/seq@6.1,disk/ext4/defaults/seq@6.12"
# each cell under the kernel it names: the header of the boot it ran in is that set's, and
# its release that kernel's
check "every cell ran under its own kernel (the release of its boot's header)" test "$(jq -r -s '
	reduce .[] as $r ({h: null, out: []};
		if $r.type == "header" then .h = $r.kernel
		elif $r.type == "cell" then .out += ["\($r.axes.kernel)=\(.h.set):\(.h.release | split(".")[0:2] | join("."))"]
		else . end) | .out | join(",")' "$j")" = "6.1=6.1:6.1,6.12=6.12:6.12,6.12=6.12:6.12,6.1=6.1:6.1"
check "the switches: to 6.12, again to 6.12 after the cut, back to 6.1" test "$(jq -r -s \
	'[.[] | select(.type == "event" and .event == "kernel-switch") | "\(.from)>\(.to)@\(.index)"] | join(",")' "$j")" \
	= "6.1>6.12@2,6.1>6.12@2,6.12>6.1@4"
expect_console "the console says each switch" '^fsmatrix: switching to kernel 6\.1 for cell 4 \(kexec\)'
expect_console "the 6.12 boot resumes the run" '^fsmatrix: resuming run .* \(boot [0-9]+ of it'
check "one trailer, written by the last kernel's boot" test "$(jq -s '[.[] | select(.type == "trailer")] | length' "$j")" = 1
expect_no_console "no module failed to load under either kernel" 'unable to load module'
cmp_out=$RUN.compare
"$FSM_ROOT/out/fsmatrix" compare --by kernel "$j" >"$cmp_out" 2>&1
check "compare --by kernel: 6.1 is A, 6.12 is B" grep -Eq "^A: run .* kernel 6\.1 \(from" "$cmp_out"
check "compare --by kernel: 6.12 is B" grep -Eq "^B: run .* kernel 6\.12 \(from" "$cmp_out"
check "compare --by kernel: the cell under 6.1 against itself under 6.12, with its ratio and change" \
	grep -Eq "^ *disk/ext4/defaults/seq +MB/s .* [0-9]+\.[0-9]+ +[+-][0-9.]+%" "$cmp_out"
sha256_unchanged "the disk not handed over is byte-identical" "$RUN/disks/fsmtest1.img"
rm -rf "$RUN/disks"

# A kernel that never starts: a set whose initramfs is junk, so that its kernel panics and
# qemu ends (panic=-1, -no-reboot), as a machine would reboot into its firmware's kernel.
# Each boot after it comes up under 6.1 and tries the switch again while the plan's retries
# (1) allow; the third gives that kernel up: its cell an error saying why, the run ended.
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-never
rm -rf "$RUN" && mkdir -p "$RUN/disks" "$RUN.sets/6.1" "$RUN.sets/broken"
truncate -s 1G "$RUN/disks/fsmtest0.img"
cp "$FSM_ROOT/out/kernels/6.1/vmlinuz" "$FSM_ROOT/out/kernels/6.1/initramfs.img" "$RUN.sets/6.1/"
cp "$FSM_ROOT/out/kernels/6.1/vmlinuz" "$RUN.sets/broken/"
head -c 4096 /dev/urandom >"$RUN.sets/broken/initramfs.img"
sed 's/^kernels = .*/kernels = 6.1, broken/; s/^repeat = 2$/repeat = 1/' "$PLAN" >"$RUN.ini"
# the results disk made as qemu/run makes it (which --reuse then keeps), with the sets on it
put_sets() {
	truncate -s 96M "$RUN/results.img" &&
		echo "start=2048, type=e" | sfdisk -q --label dos "$RUN/results.img" >/dev/null &&
		mkfs.vfat -F 16 -n FSMRESULTS --offset 2048 "$RUN/results.img" $(((96 << 10) - 1024)) >/dev/null &&
		mmd -i "$RUN/results.img@@1048576" ::fsmatrix ::fsmatrix/kernels ::fsmatrix/kernels/6.1 ::fsmatrix/kernels/broken &&
		mcopy -i "$RUN/results.img@@1048576" "$RUN.sets/6.1/vmlinuz" "$RUN.sets/6.1/initramfs.img" ::fsmatrix/kernels/6.1/ &&
		mcopy -i "$RUN/results.img@@1048576" "$RUN.sets/broken/vmlinuz" "$RUN.sets/broken/initramfs.img" ::fsmatrix/kernels/broken/
}
never=(--reuse --keep --disks 1 --size 1G --results-size 96M --plan "$RUN.ini" --timeout 300)
check "a results disk with the sets 6.1 and broken" put_sets
# qemu/run boots the guest again after a panic in the middle of a run (qemu/lib/relaunch.sh),
# as a machine's firmware does: one qemu/run, three boots
boot never "${never[@]}"
check "two boots end in the broken kernel's panic, qemu/run boots the guest again, the third completes" \
	test "$BOOT_STATUS $(grep -ac 'Kernel panic' "$RUN/console.log") $(grep -o '[0-9]* boots' "$RUN/status")" = "0 2 3 boots"
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "two switches to broken, then none" test "$(jq -r -s \
	'[.[] | select(.type == "event" and .event == "kernel-switch") | .to] | join(",")' "$j")" = "broken,broken"
check "the cell under 6.1 ok, the broken kernel's an error saying why" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.axes.kernel):\(.status):\(.error // "")"] | join(",")' "$j")" \
	= "6.1:ok:,broken:error:kernel broken did not start after 2 switches to it (the machine came back under 6.1 each time)"
rm -rf "$RUN/disks" "$RUN.sets"

# A label that is not the kernel running: 6.1's vmlinuz booted with fsmatrix.kernel=6.12,
# and the plan's first kernel 6.12. /init checks the name against the set's own vmlinuz (its
# kernel_version string against uname), drops it, and switches to 6.12 for the first cell:
# no cell runs under a label that is not its kernel.
sed 's/^repeat = 2$/repeat = 1/; s/^kernels = .*/kernels = 6.12, 6.1/' "$PLAN" >"$FSM_TEST_RUNS/48-kernels-label.ini"
KERNEL=$FSM_ROOT/out/kernels/6.1/vmlinuz
boot label --disks 1 --size 1G --timeout 400 --plan "$FSM_TEST_RUNS/48-kernels-label.ini" --kernels "6.1 6.12" \
	--append "fsmatrix.kernel=6.12"
expect_status "label: the run completes (exit 0)" 0
expect_console "label: /init says the kernel running is not the set 6.12's" \
	'^fsmatrix: kernels: fsmatrix\.kernel=6\.12, but the kernel running \(6\.1\.0-.*\) is not that set.s vmlinuz \(6\.12\.'
check "label: the first boot, its label dropped, switched to 6.12 for the first cell, then to 6.1" test "$(records_console | jq -r -s \
	'[.[] | select(.type == "event" and .event == "kernel-switch") | "\(.from)>\(.to)@\(.index)"] | join(",")')" \
	= "null>6.12@1,6.12>6.1@2"
check "label: each cell under the kernel it names" test "$(records_console | jq -r -s '
	reduce .[] as $r ({h: null, out: []};
		if $r.type == "header" then .h = $r.kernel
		elif $r.type == "cell" then .out += ["\($r.axes.kernel)=\(.h.set):\(.h.release | split(".")[0:2] | join(".")):\($r.status)"]
		else . end) | .out | join(",")')" = "6.12=6.12:6.12:ok,6.1=6.1:6.1:ok"
