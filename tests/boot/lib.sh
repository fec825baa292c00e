# tests/boot/lib.sh: what every boot test sources. A boot test boots the image through
# qemu/run once (or a few times) and reports one line per check:
#
#   boot NAME [qemu/run flags...]    boots into build/tests/runs/<test>-NAME; sets RUN (the
#                                    run directory) and BOOT_STATUS (qemu/run's exit status)
#   boot_killed NAME REGEX [flags...]  the same, with qemu killed (SIGKILL, a power cut) 5 s
#                                    after REGEX shows on the console; sets KILLED (yes/no)
#   expect_status CHECK CODE         qemu/run exited with CODE (0 completed, 2 guest failed,
#                                    3 timeout: see qemu/run --help)
#   expect_console CHECK REGEX       an extended regex matches a line of RUN/console.log
#   expect_no_console CHECK REGEX    ... matches no line
#   expect_record CHECK FILTER       a CRC-valid record on the console makes the jq FILTER
#                                    true (or any value but false/null): '.type == "header"'
#                                    (a record on which FILTER raises an error counts as false)
#   expect_result_record CHECK FILTER   the same, on the records in RUN/results/*.jsonl
#   expect_file CHECK GLOB           a non-empty file matches GLOB under RUN
#   snapshot IMAGE / sha256_unchanged CHECK IMAGE   IMAGE's sha256 did not change since
#   check CHECK COMMAND...           any command; its last output line is the failure reason
#   ok CHECK / fail CHECK REASON / skip CHECK REASON   report directly
#   skip_all REASON                  the whole file cannot run here: one skip line, exit
#   need_image                       skip_all unless KERNEL and INITRD are there
#   cell ID [FILTER]                 prints the jq filter of the cell record ID, piped into
#                                    FILTER if given: expect_record NAME "$(cell ID '.status')"
#   hello_initrd                     prints the path of a tiny initramfs with out/hello-init
#
# KERNEL and INITRD are the image (out/vmlinuz, out/initramfs.img; FSM_TEST_KERNEL and
# FSM_TEST_INITRD override them).
# Run by tests/run, the lines go to the harness (fd 3) and are counted there; run alone
# (bash tests/boot/00-runner.sh) they go to the terminal.
# shellcheck shell=bash

FSM_ROOT=${FSM_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
FSM_TEST_NAME=${FSM_TEST_NAME:-boot/$(basename "$0" .sh)}
FSM_TEST_RUNS=${FSM_TEST_RUNS:-$FSM_ROOT/build/tests/runs}
FSM_TEST_OUT=${FSM_TEST_OUT:-/dev/null}
FSM_BOOT_TIMEOUT=${FSM_BOOT_TIMEOUT:-600}
# The image every boot uses unless a test passes --kernel/--initrd itself; the variables let
# a developer try the tests on another image.
KERNEL=${FSM_TEST_KERNEL:-$FSM_ROOT/out/vmlinuz}
INITRD=${FSM_TEST_INITRD:-$FSM_ROOT/out/initramfs.img}
# fd 3 is the harness; alone, the terminal.
{ true >&3; } 2>/dev/null || exec 3>&1
RUN= BOOT_STATUS=
RECORDS=$FSM_ROOT/qemu/records

_report() { # LINE
	printf '%s\n' "$1" >&3
	[ "$FSM_TEST_OUT" = /dev/null ] || printf '%s\n' "$1" >>"$FSM_TEST_OUT"
}
ok() { _report "ok - $FSM_TEST_NAME: $1"; }
# A figure worth seeing beside the checks (a time, a ratio): a "#" line, never counted as a
# pass; a goal on it belongs to make bench, which measures it as a ratio
info() { _report "# $FSM_TEST_NAME: $1"; }
skip() { _report "skip - $FSM_TEST_NAME: $1: $2"; }
fail() {
	_report "FAIL - $FSM_TEST_NAME: $1: $2"
	# the harness shows this run's console tail once the file is done
	[ -z "$RUN" ] || [ "$FSM_TEST_OUT" = /dev/null ] || echo "$RUN" >>"$FSM_TEST_OUT.runs"
	[ "$FSM_TEST_OUT" != /dev/null ] || [ -z "$RUN" ] || tail -n 15 "$RUN/console.log" 2>/dev/null | sed 's/^/#   /' >&3
}
skip_all() { _report "skip - $FSM_TEST_NAME: $1"; exit 0; }
need_image() {
	[ -s "$KERNEL" ] || skip_all "$KERNEL is missing (make image)"
	[ -s "$INITRD" ] || skip_all "$INITRD is missing (make image)"
}

boot() { # NAME [qemu/run flags...]
	local name=$1 a reuse=0
	shift
	for a in "$@"; do [ "$a" != --reuse ] || reuse=1; done
	RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-$name
	mkdir -p "$FSM_TEST_RUNS"
	[ "$reuse" = 1 ] || rm -rf "$RUN"
	# qemu/run's stdout (the console) and its own messages, next to the run directory
	"$FSM_ROOT/qemu/run" --run-dir "$RUN" --kernel "$KERNEL" --initrd "$INITRD" --mem 1024M \
		--timeout "$FSM_BOOT_TIMEOUT" "$@" \
		</dev/null >"$RUN.out" 2>&1
	BOOT_STATUS=$?
	return 0
}

# A slow cell that lasts as long on any host: the plans' [workload slow] (O_DIRECT 4 KiB
# writes) on a disk qemu caps at SLOW_IOPS requests a second (--disk-iops "$SLOW_IOPS")
# streams 1.6 MB/s wherever the guest could issue them faster (a busy TCG guest on the
# slower machine: about 580 a second, 2.3 MB/s), so 12m lasts 7.9 s. Without the cap its
# length was the host's CPU: 100m took 10 s on one machine and 46 on another. mkfs and the
# buffered cells beside it send few, large requests, which the cap hardly slows.
SLOW_IOPS=400

# boot_killed NAME REGEX [qemu/run flags...]: boots as boot does, in the background, and
# KILL_AFTER (default 5) s after REGEX shows on its console (the cell has begun writing) kills its qemu with
# SIGKILL, as a power cut, which leaves the results disk as the guest's last fsync left it.
# KILLED is then yes or no, BOOT_STATUS qemu/run's status.
boot_killed() {
	local name=$1 regex=$2 status booting pid
	shift 2
	RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-$name
	status=$RUN.status
	rm -f "$status"
	(
		boot "$name" "$@"
		echo "$BOOT_STATUS" >"$status"
	) &
	booting=$!
	KILLED=no
	for _ in $(seq 400); do
		if grep -q -- "$regex" "$RUN/console.log" 2>/dev/null; then
			sleep "${KILL_AFTER:-5}"
			pid=$(cat "$RUN/qemu.pid" 2>/dev/null)
			case $(cat "/proc/$pid/comm" 2>/dev/null) in
			qemu*) kill -KILL "$pid" && KILLED=yes ;;
			esac
			break
		fi
		sleep 0.5
	done
	wait "$booting"
	BOOT_STATUS=$(cat "$status" 2>/dev/null)
}

# boot_killed_slow NAME REGEX [qemu/run flags...]: boot_killed on disks capped at SLOW_IOPS,
# killed 2 s after REGEX (the slow cell's "running" line): well inside its 8 s.
boot_killed_slow() {
	KILL_AFTER=2 boot_killed "$@" --disk-iops "$SLOW_IOPS"
}

# qmp_throttle BPS: qemu's I/O throttle (QMP block_set_io_throttle) on the first test disk of
# the boot running in $RUN, to BPS bytes/s; 0 lifts it. qemu's answer goes to $RUN.qmp.
qmp_throttle() {
	"$FSM_ROOT/qemu/monitor" --qmp "$RUN" '{"execute":"block_set_io_throttle","arguments":{"device":"drv-fsmtest0","bps":'"$1"',"bps_rd":0,"bps_wr":0,"iops":0,"iops_rd":0,"iops_wr":0}}' >>"$RUN.qmp" 2>&1
}

check() { # CHECK COMMAND...
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		fail "$name" "$(printf '%s\n' "${out:-$1 failed}" | tail -n 1 | cut -c1-200)"
	fi
}

_runner_says() { grep "^qemu/run: " "$RUN.out" 2>/dev/null | tail -n 1 | cut -c1-160; }

expect_status() { # CHECK CODE
	if [ "$BOOT_STATUS" = "$2" ]; then
		ok "$1"
	else
		fail "$1" "qemu/run exited $BOOT_STATUS, expected $2 ($(_runner_says))"
	fi
}

expect_console() { # CHECK REGEX
	if grep -Eq -- "$2" "$RUN/console.log" 2>/dev/null; then
		ok "$1"
	else
		fail "$1" "no console line matches /$2/"
	fi
}

expect_no_console() { # CHECK REGEX
	local line
	if line=$(grep -E -m1 -- "$2" "$RUN/console.log" 2>/dev/null); then
		fail "$1" "console line matches /$2/: $(printf '%s' "$line" | tr -d '\r' | cut -c1-120)"
	else
		ok "$1"
	fi
}

records_console() { "$RECORDS" "$RUN/console.log" 2>/dev/null; }
records_results() { cat "$RUN"/results/*.jsonl 2>/dev/null; }

_expect_in() { # CHECK FILTER SOURCE-FUNCTION WHERE
	local name=$1 filter=$2 recs n out
	recs=$($3)
	n=$(printf '%s' "$recs" | grep -c '^{')
	if out=$(printf '%s\n' "$recs" | jq -e -s \
		"[.[] | try ($filter) catch false] | map(select(. != null and . != false)) | length > 0" 2>&1); then
		ok "$name"
	elif [ "$out" = false ]; then
		fail "$name" "no record of the $n on the $4 makes $filter true"
	else
		fail "$name" "jq: $(printf '%s' "$out" | head -n 1)"
	fi
}
expect_record() { _expect_in "$1" "$2" records_console console; }
expect_result_record() { _expect_in "$1" "$2" records_results "results disk"; }
cell() { # ID [FILTER]
	printf 'select(.type == "cell" and .cell == "%s")' "$1"
	[ $# -lt 2 ] || printf ' | %s' "$2"
}

expect_file() { # CHECK GLOB
	local f
	for f in "$RUN"/$2; do
		if [ -s "$f" ]; then
			ok "$1"
			return
		fi
	done
	fail "$1" "no non-empty file $2 in $RUN"
}

declare -A _SNAP
snapshot() { _SNAP[$1]=$(sha256sum <"$1" | cut -d' ' -f1); }
sha256_unchanged() { # CHECK IMAGE
	local now
	now=$(sha256sum <"$2" 2>/dev/null | cut -d' ' -f1)
	if [ -z "${_SNAP[$2]:-}" ]; then
		fail "$1" "no snapshot of $2 was taken before the boot"
	elif [ "$now" = "${_SNAP[$2]}" ]; then
		ok "$1"
	else
		fail "$1" "$2 changed: sha256 ${_SNAP[$2]:0:12}... became ${now:0:12}..."
	fi
}

# A tiny newc initramfs holding only out/hello-init as /init (the kernel's built-in
# initramfs supplies /dev/console). Rebuilt when out/hello-init is newer.
hello_initrd() {
	local dir=$FSM_ROOT/build/hello img=$FSM_ROOT/build/hello/initramfs.img
	local init=$FSM_ROOT/out/hello-init
	[ -x "$init" ] || return 1
	if [ ! -s "$img" ] || [ "$init" -nt "$img" ]; then
		rm -rf "$dir/root" && mkdir -p "$dir/root/proc" "$dir/root/dev" &&
			cp "$init" "$dir/root/init" &&
			(cd "$dir/root" && find . | LC_ALL=C sort |
				cpio -o -H newc -R +0:+0 --quiet | gzip -n -9) >"$img.tmp" &&
			mv "$img.tmp" "$img" || return 1
	fi
	printf '%s\n' "$img"
}

# type_at_shell FILE FD TEXT [prompt]: once FILE shows /init starting its shell on the console
# (with "prompt": and the shell's "# " prompt is the last thing in it; without, 2 s after),
# writes TEXT to descriptor FD and sets typed=yes; else, after 120 s, typed=no.
type_at_shell() {
	typed=no
	for _ in $(seq 240); do
		if grep -q 'starting a shell on the console' "$1" 2>/dev/null &&
			{ [ "${4:-}" != prompt ] || [ "$(tail -c 2 "$1")" = "# " ]; }; then
			[ "${4:-}" = prompt ] || sleep 2
			printf '%s' "$3" >&"$2" && typed=yes
			return
		fi
		sleep 0.5
	done
}
