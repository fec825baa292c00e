# 31-quiet-terminal: on a terminal, qemu/run shows the human lines and not the records. Run
# under script(1), which gives it a pseudo-terminal: the terminal shows the progress lines
# and no FSMREC line while console.log holds every record; --show-records shows them again;
# and at the fsmatrix.shell=now shell the prompt (no newline after it) still reaches the
# terminal and `poweroff` typed there still powers the guest off.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
command -v script >/dev/null || skip_all "script(1) is missing (util-linux)"

# on_tty NAME TYPESCRIPT [qemu/run flags]: qemu/run on a pseudo-terminal, what it showed there
# in TYPESCRIPT, its status in BOOT_STATUS
on_tty() {
	local name=$1 ts=$2 q
	shift 2
	RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-$name
	rm -rf "$RUN"
	mkdir -p "$FSM_TEST_RUNS"
	q=$(printf '%q ' "$FSM_ROOT/qemu/run" --run-dir "$RUN" --kernel "$KERNEL" --initrd "$INITRD" \
		--mem 1024M --timeout "$FSM_BOOT_TIMEOUT" "$@")
	script -qfec "$q" "$ts" </dev/null >/dev/null 2>&1
	BOOT_STATUS=$?
}

ts=$FSM_TEST_RUNS/31-quiet.typescript
on_tty quiet "$ts" --disks 1 --size 256M --plan "$FSM_ROOT/tests/boot/smoke.ini"
expect_status "the run completes (exit 0)" 0
check "the terminal showed the cell's progress line" grep -q '\[1/1\] disk ext4 defaults seq rep 1/1: [0-9.]* MB/s' "$ts"
check "the terminal showed no record line" sh -c '! grep -q "FSMREC " "$1"' sh "$ts"
check "console.log holds every record, the trailer last" \
	sh -c '"$1"/qemu/records "$2"/console.log | tail -n 1 | grep -q "\"type\":\"trailer\""' sh "$FSM_ROOT" "$RUN"
check "console.log holds the cell record" \
	sh -c '"$1"/qemu/records "$2"/console.log | grep -q "\"type\":\"cell\""' sh "$FSM_ROOT" "$RUN"

ts=$FSM_TEST_RUNS/31-shown.typescript
on_tty shown "$ts" --disks 1 --size 256M --plan "$FSM_ROOT/tests/boot/smoke.ini" --show-records
expect_status "--show-records: the run completes (exit 0)" 0
check "--show-records: the terminal showed the records" grep -q '^FSMREC [0-9a-f]* {"v":1,"type":"trailer"' "$ts"

# The shell: typed input through script's standard input, once the prompt is on the terminal.
ts=$FSM_TEST_RUNS/31-shell.typescript
rm -f "$ts" "$ts.in"
mkfifo "$ts.in"
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-shell
rm -rf "$RUN"
q=$(printf '%q ' "$FSM_ROOT/qemu/run" --run-dir "$RUN" --kernel "$KERNEL" --initrd "$INITRD" \
	--mem 1024M --timeout 180 --append "fsmatrix.shell=now")
script -qfec "$q" "$ts" <"$ts.in" >/dev/null 2>&1 &
booting=$!
exec 4>"$ts.in"
# the prompt is the last thing on the terminal, with no newline after it
type_at_shell "$ts" 4 $'poweroff\r' prompt
wait "$booting"
BOOT_STATUS=$?
exec 4>&-
rm -f "$ts.in"
check "the shell's prompt reached the terminal and poweroff was typed" test "$typed" = yes
expect_console "the guest powered off" 'reboot: Power down'
check "qemu ended by itself (guest-failed: a shell run has no trailer)" test "$BOOT_STATUS" = 2
