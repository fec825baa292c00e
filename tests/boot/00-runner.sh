# 00-runner: qemu/run itself, with out/hello-init as the whole guest (a few seconds a boot):
# the accelerator probe, the command line, preallocated disks, the results disk round trip,
# --reuse, the QMP socket, and each exit status (completed, guest failure, timeout).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

[ -s "$KERNEL" ] || skip_all "$KERNEL is missing (make out/vmlinuz)"
[ -x "$FSM_ROOT/out/hello-init" ] || skip_all "out/hello-init is missing (make out/hello-init)"
HELLO=$(hello_initrd) || skip_all "unable to pack out/hello-init into an initramfs"
QRUN=$FSM_ROOT/qemu/run
IMG=(--kernel "$KERNEL" --initrd "$HELLO")
SIZE=256M SIZE_B=$((256 << 20))
tmp=$FSM_TEST_RUNS/00-runner.tmp
rm -rf "$tmp" && mkdir -p "$tmp"

# ---- the accelerator: a fresh probe decides within seconds and says why; then it is cached.
cache=$tmp/accel-probe
t0=$(date +%s)
FSM_ACCEL_CACHE=$cache "$QRUN" "${IMG[@]}" --dry-run --run-dir "$tmp/dry" >/dev/null 2>"$tmp/probe.err"
t1=$(date +%s)
verdict=$(grep -o 'accelerator: [a-z]* (.*)' "$tmp/probe.err")
if [ -n "$verdict" ] && [ $((t1 - t0)) -le 15 ]; then
	ok "auto accel decided in $((t1 - t0)) s: ${verdict#accelerator: }"
else
	fail "auto accel decides within 15 s with a reason" "took $((t1 - t0)) s; said: $(tail -n 1 "$tmp/probe.err")"
fi
FSM_ACCEL_CACHE=$cache "$QRUN" "${IMG[@]}" --dry-run --run-dir "$tmp/dry" >/dev/null 2>"$tmp/probe2.err"
# Without /dev/kvm nothing is probed, so nothing is cached: the second run says the same.
if grep -q 'accelerator: tcg (no /dev/kvm)' "$tmp/probe.err"; then
	check "auto accel without /dev/kvm: no probe to cache, the same verdict again" \
		grep -q 'accelerator: tcg (no /dev/kvm)' "$tmp/probe2.err"
else
	check "auto accel verdict is cached" grep -q "accelerator: .*cached in" "$tmp/probe2.err"
fi
# On a machine whose KVM really works the verdict must be kvm, and it must boot (below); on
# one where it hangs or asserts it must be tcg: here, nested KVM is broken.
if grep -q 'accelerator: kvm' "$tmp/probe.err"; then
	check "auto chose kvm, and a KVM boot completes" \
		"$QRUN" "${IMG[@]}" --accel kvm --run-dir "$tmp/kvm" --timeout 60
else
	check "auto chose tcg" grep -q 'accelerator: tcg (' "$tmp/probe.err"
fi

# ---- --dry-run: the command line, and nothing made.
dry=$("$QRUN" "${IMG[@]}" --accel tcg --dry-run --disks 2 --size "$SIZE" --run-dir "$tmp/dry" 2>/dev/null)
check "dry-run prints qemu with cache=none and native AIO" grep -q 'qemu-system-x86_64 .*cache=none,aio=native' <<<"$dry"
check "dry-run names the disks by serial fsmtest0 and fsmtest1" \
	grep -q 'serial=fsmtest0,.*serial=fsmtest1,' <<<"$dry"
check "dry-run has -no-reboot, panic=-1 and fsmatrix.disks=serial:fsmtest*" \
	grep -q -- '-no-reboot .*panic=-1.*fsmatrix\.disks=serial:fsmtest\*' <<<"$dry"
check "dry-run makes no run directory" test ! -e "$tmp/dry"
for bus in virtio-scsi nvme; do
	dry=$("$QRUN" "${IMG[@]}" --accel tcg --dry-run --disks 1 --disk-bus $bus --run-dir "$tmp/dry" 2>/dev/null)
	want=scsi-hd; [ $bus = virtio-scsi ] || want=nvme
	check "dry-run --disk-bus $bus attaches $want with serial fsmtest0" \
		grep -q -- "-device $want,[^ ]*serial=fsmtest0" <<<"$dry"
done
# one bus per disk: each controller once, each disk at its place on its own bus
dry=$("$QRUN" "${IMG[@]}" --accel tcg --dry-run --disks 3 --disk-bus ahci,nvme,ahci --run-dir "$tmp/dry" 2>/dev/null)
check "dry-run --disk-bus ahci,nvme,ahci: one ich9-ahci, fsmtest0 and fsmtest2 on its ports 0 and 1, fsmtest1 on nvme" \
	test "$(grep -o -- '-device [^ ]*' <<<"$dry" | grep -E 'ahci|nvme|ide-hd' | cut -d, -f1-3 | tr '\n' ' ')" = \
	"-device ich9-ahci,id=hba-ahci -device ide-hd,bus=hba-ahci.0,drive=drv-fsmtest0 -device nvme,drive=drv-fsmtest1,serial=fsmtest1 -device ide-hd,bus=hba-ahci.1,drive=drv-fsmtest2 "
"$QRUN" "${IMG[@]}" --disk-bus floppy --dry-run >/dev/null 2>&1
rc=$?
check "a bad flag value exits 1 (was $rc)" test "$rc" = 1
msg=$("$QRUN" "${IMG[@]}" --disks 3 --disk-bus nvme,ahci --dry-run 2>&1 >/dev/null)
check "a bus list not one per disk: one line naming the flag" \
	test "$msg" = "qemu/run: --disk-bus nvme,ahci: 2 buses for 3 disks: give one for every disk or one per disk"

# ---- the kernel's entry: qemu starts the bzImage, or with --kernel-entry pvh the ELF kernel
# the bzImage carries, at its PVH entry; the ELF is the bzImage's own kernel.
dry=$("$QRUN" "${IMG[@]}" --accel tcg --dry-run --run-dir "$tmp/dry" 2>/dev/null)
check "by default qemu loads the bzImage itself" grep -q -- "-kernel $KERNEL " <<<"$dry"
dry=$("$QRUN" "${IMG[@]}" --accel tcg --dry-run --kernel-entry pvh --run-dir "$tmp/dry" 2>/dev/null)
elf=$(grep -o -- '-kernel [^ ]*' <<<"$dry" | cut -d' ' -f2)
check "--kernel-entry pvh: qemu loads the bzImage's ELF kernel, unpacked once into out/.pvh/" \
	bash -c 'case $1 in "$2"/out/.pvh/*.vmlinux) head -c 4 "$1" | grep -q ELF ;; *) false ;; esac' _ "$elf" "$FSM_ROOT"
version() { grep -a -o -m 1 'Linux version [0-9][^ ]* ([^)]*)' "$1" | head -n 1; }
payload() { # the bzImage's payload, decompressed here as the boot protocol's header places it
	tail -c +"$(($(od -An -t u4 -j 584 -N 4 "$1") + ($(od -An -t u1 -j 497 -N 1 "$1") + 1) * 512 + 1))" "$1" |
		xz -dc --single-stream 2>/dev/null
}
check "the ELF is the bzImage's kernel: the same version line ($(version "$elf" | cut -c1-40)...)" \
	bash -c 'test -n "$1" && test "$1" = "$2"' _ "$(version "$elf")" "$(payload "$KERNEL" | grep -a -o -m 1 'Linux version [0-9][^ ]* ([^)]*)' | head -n 1)"
check "a file that is not a bzImage: qemu/pvh-kernel says so in one line, exit 1" bash -c '
	out=$("$1"/qemu/pvh-kernel "$2" "$3" 2>&1 >/dev/null); rc=$?
	test "$rc" = 1 && test "$(wc -l <<<"$out")" = 1 && grep -q "is not a bzImage" <<<"$out"' _ "$FSM_ROOT" "$HELLO" "$tmp/pvh"

# ---- a completed run: 2 preallocated disks kept, a plan through the results disk.
printf '# a plan for the round trip\n[run]\nname = runner-test\n' >"$tmp/plan.ini"
boot ok "${IMG[@]}" --disks 2 --size "$SIZE" --keep --plan "$tmp/plan.ini"
expect_status "completed run exits 0" 0
expect_console "the guest console reaches the log" '^hello-init: reached /init, uptime [0-9.]+ s'
check "status file says completed" grep -q '^completed ' "$RUN/status"
for i in 0 1; do
	f=$RUN/disks/fsmtest$i.img
	check "fsmtest$i.img is $SIZE and fully preallocated" \
		test "$(stat -c %s "$f" 2>/dev/null)" = $SIZE_B -a "$(($(stat -c '%b * %B' "$f" 2>/dev/null || echo 0)))" -ge $SIZE_B
done
check "the plan went onto the results disk and came back as plan.ini" cmp "$tmp/plan.ini" "$RUN/plan.ini"
check "results.img has one FAT partition labelled FSMRESULTS at 1 MiB" \
	bash -c "sfdisk -d '$RUN/results.img' | grep -q 'start= *2048,.*type=e' &&
		MTOOLS_SKIP_CHECK=1 mlabel -s -i '$RUN/results.img@@1048576' :: | grep -q FSMRESULTS"
check "qemu.cmdline records the command line" grep -q 'serial=fsmtest1' "$RUN/qemu.cmdline"

# ---- --reuse: the same disk files, the console of the first boot kept.
ino=$(stat -c %i "$RUN/disks/fsmtest0.img" 2>/dev/null)
boot ok "${IMG[@]}" --disks 2 --size "$SIZE" --reuse --keep
expect_status "a --reuse run completes" 0
check "--reuse kept console.1.log" grep -q 'hello-init' "$RUN/console.1.log"
check "--reuse used the same disk image" test -n "$ino" -a "$(stat -c %i "$RUN/disks/fsmtest0.img" 2>/dev/null)" = "$ino"
check "--reuse is refused with another --size" \
	bash -c "! '$QRUN' --kernel '$KERNEL' --initrd '$HELLO' --run-dir '$RUN' --reuse --disks 1 --size 512M </dev/null >/dev/null 2>&1"
check "a non-empty run directory is refused without --reuse" \
	bash -c "'$QRUN' --kernel '$KERNEL' --initrd '$HELLO' --run-dir '$RUN' </dev/null >/dev/null 2>&1; test \$? = 1"

# ---- a hang: the run is killed at --timeout and says so; meanwhile QMP pulls a disk.
RUN=$FSM_TEST_RUNS/00-runner-hang
rm -rf "$RUN"
(
	# pull the disk once the guest runs, as a fault-injection test would mid-cell
	for _ in $(seq 60); do grep -qs 'reached /init' "$RUN/console.log" && break; sleep 0.5; done
	"$FSM_ROOT/qemu/monitor" "$RUN" 'device_del fsmtest1' >"$tmp/qmp.del" 2>&1
	echo "status $?" >>"$tmp/qmp.del"
	# the guest's kernel lets the disk go when it gets to it: asked until it has, so a slow
	# machine does not reach the run's timeout first
	for _ in $(seq 20); do
		"$FSM_ROOT/qemu/monitor" "$RUN" 'info block' >"$tmp/qmp.block" 2>&1
		grep -q drv-fsmtest1 "$tmp/qmp.block" || break
		sleep 0.5
	done
) &
poller=$!
t0=$(date +%s)
boot hang "${IMG[@]}" --disks 2 --size "$SIZE" --timeout 20 --append hello.mode=hang
t1=$(date +%s)
wait "$poller"
expect_status "a hung guest is a timeout: exit 3" 3
check "the timeout ended the run after about 20 s (took $((t1 - t0)) s)" test $((t1 - t0)) -lt 45
check "status file says timeout" grep -q '^timeout ' "$RUN/status"
check "without --keep the test disks are gone after the run" test ! -e "$RUN/disks/fsmtest0.img"
check "qemu/monitor device_del fsmtest1 succeeds" grep -q '^status 0' "$tmp/qmp.del"
check "after device_del, fsmtest1 is gone and fsmtest0 stays" \
	bash -c "grep -q drv-fsmtest0 '$tmp/qmp.block' && ! grep -q drv-fsmtest1 '$tmp/qmp.block' ||
		{ echo \"info block: \$(grep -o 'drv-[a-z0-9]*' '$tmp/qmp.block' | tr '\n' ' ')\"; false; }"

# ---- guest failures: a panic (PID 1 exits), and a power-off without the trailer.
boot panic "${IMG[@]}" --timeout 60 --append hello.mode=exit
expect_status "a kernel panic is a guest failure: exit 2" 2
check "the runner names the panic" grep -q 'guest-failed: kernel panic' "$RUN.out"
boot notrailer "${IMG[@]}" --timeout 60 --append hello.mode=notrailer
expect_status "a power-off without the trailer is a guest failure: exit 2" 2
rm -rf "$tmp"
