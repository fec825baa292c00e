# 18-shell-poweroff: `poweroff` typed at the rescue shell (fsmatrix.shell=now) reaches PID 1
# as busybox's SIGUSR2: /init stops the shell, unmounts the results partition and powers
# off, and qemu ends on its own. Before it, the shell shows how many transparent huge pages
# the kernel made on a fault: none. /init's static buffers span an aligned 2 MiB range, and
# its first write there made the kernel zero a whole huge page (20 ms under TCG).
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-shell
rm -rf "$RUN" "$RUN.in"
mkfifo "$RUN.in"
# The console's input: held open until the shell is up, then one line.
"$FSM_ROOT/qemu/run" --run-dir "$RUN" --kernel "$KERNEL" --initrd "$INITRD" --mem 1024M \
	--timeout 180 --append "fsmatrix.shell=now" <"$RUN.in" >"$RUN.out" 2>&1 &
booting=$!
exec 4>"$RUN.in"
type_at_shell "$RUN/console.log" 4 $'echo THP $(grep thp_fault_alloc /proc/vmstat)\npoweroff\n'
wait "$booting"
BOOT_STATUS=$?
exec 4>&-
rm -f "$RUN.in"
check "poweroff was typed at the shell" test "$typed" = yes
expect_console "no transparent huge page was made on a fault" '^THP thp_fault_alloc 0\b'
expect_console "PID 1 took busybox's signal" 'fsmatrix: powering off asked for \(signal 12\)'
expect_console "the guest powered off" 'reboot: Power down'
check "qemu ended by itself, before the runner's timeout (guest-failed: a shell run has no trailer)" \
	test "$BOOT_STATUS" = 2
