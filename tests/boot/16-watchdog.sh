# 16-watchdog: a hang only the watchdog can end. fsmatrix.debug_hang=2
# makes PID 1 freeze the second cell's filesystem (FIFREEZE) and write to it itself: the
# write waits in the kernel, uninterruptibly, and PID 1 stops petting the watchdog. softdog
# (armed for 20 s by fsmatrix.watchdog=20) reboots the guest; qemu/run --reboot keeps the
# same VM, disks and command line, and the next boot resumes the run: cell 2 is recorded
# as interrupted once, then runs again (debug_hang hangs only a first attempt), and the
# run completes. Then the same with qemu's i6300esb, a hardware watchdog.
# Why this hang and not another: stopping the VM from the monitor stops the watchdog's
# timer too, and throttling the disk through QMP leaves PID 1 free to give up on the stuck
# workload and pet on. A frozen filesystem is a real in-kernel wait, in PID 1 itself.
# The i6300esb boot's disk sits behind a MegaRAID HBA and both cells set its write cache off
# (tests/plans/watchdog-wc.ini): the disk keeps the setting over the reset, so the resumed boot
# finds it off, and must put back what the run's first boot found (on) before its header and
# cells read it as the original.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

# The same hang twice: once with softdog, once with qemu's i6300esb (qemu/run --watchdog),
# which /init loads by its modalias and prefers over softdog.
for wd in "softdog:Software Watchdog" "i6300esb:i6300ESB timer"; do
model=${wd%%:*} identity=${wd#*:}
flags=() plan=watchdog.ini
[ "$model" = softdog ] || flags=(--watchdog "$model" --disk-bus megasas) plan=watchdog-wc.ini
boot "hang-$model" --disks 1 --size 256M --timeout 400 --reboot "${flags[@]}" \
	--plan "$FSM_ROOT/tests/plans/$plan" --append "fsmatrix.watchdog=20 fsmatrix.debug_hang=2"
expect_status "$model: the run completes after the watchdog's reboot (exit 0)" 0
expect_console "$model: it was the watchdog armed, for 20 s" "fsmatrix: watchdog /dev/watchdog \\($identity\\) armed: 20 s"
expect_record "$model: the header records the watchdog" \
	'select(.type == "header") | .watchdog.device == "/dev/watchdog" and .watchdog.timeout_s == 20'
expect_console "$model: PID 1 hung in cell 2" 'debug_hang: cell 2, attempt 1: freezing'
check "$model: the guest booted twice in one qemu (the watchdog rebooted it)" \
	test "$(grep -c 'fsmatrix: /init .* starting' "$RUN/console.log")" = 2
expect_console "$model: the second boot resumed the run" 'fsmatrix: resuming run '
id=$(basename "$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)" .jsonl)
j=$RUN/results/$id.jsonl
check "$model: one journal for the run" test "$(ls "$RUN"/results/*.jsonl | wc -l)" = 1
check "$model: cell 1 ok, cell 2 interrupted once then ok on attempt 2" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.index):\(.status):\(.attempt)"] | join(" ")' "$j")" = \
	"1:ok:1 2:interrupted:1 2:ok:2"
check "$model: the second boot's header says it resumed" test "$(jq -s \
	'[.[] | select(.type == "header") | .resumed] | map(tostring) | join(",")' "$j")" = '"0,1"'
check "$model: one trailer" test "$(jq -s '[.[] | select(.type == "trailer")] | length' "$j")" = 1
expect_console "$model: the watchdog is disarmed before the power-off" 'fsmatrix: watchdog disarmed'
[ "$plan" = watchdog-wc.ini ] || continue
expect_console "$model: the resumed boot found the write cache the hung cell set off, and put back on" \
	'fsmatrix: resume: sd[a-z]+ \(serial [^)]*\): write cache off, on when the run began \(an interrupted cell left it so\): put back on'
check "$model: the resume event records the write cache put back" test "$(jq -s -c \
	'[.[] | select(.type == "event" and .event == "resume") | .write_cache_put_back[] | [.found, .first, .ok]]' "$j")" = '[["off","on",true]]'
check "$model: both boots' headers find the write cache on" test "$(jq -s -c \
	'[.[] | select(.type == "header") | .conditions.inputs.disks[0].write_cache]' "$j")" = '["on","on"]'
check "$model: cell 2's second attempt found it on, set it off, and put it back" test "$(jq -s -c \
	'[.[] | select(.type == "cell" and .index == 2 and .status == "ok") | (.tunables.found.write_cache | to_entries[0].value), (.tunables.effective.write_cache | to_entries[0].value)]' "$j")" = '["on","off"]'
check "$model: after the last cell the disk has its write cache on, as the run found it" test "$(jq -s -c \
	'[.[] | select(.type == "event" and .event == "devices" and .phase == "end") | .disks[0].write_cache]' "$j")" = '["on"]'
done
