# 05-serial-drain: on a slow console (a 115200 baud line, a lab's console socket) the last
# lines must still arrive: /init drains the console before it powers off. Without that the
# bytes still in the kernel's tty buffer die with the machine: here the trailer record and
# "powering off", so the run looked incomplete. A dry run of a 12-cell plan writes a large
# plan record right before the end, so the line is busy when the run ends.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
command -v perl >/dev/null || skip_all "perl is missing (qemu/run --serial-rate needs it)"

boot slow --disks 4 --size 400M --serial-rate 11520 --timeout 300 --append fsmatrix.dry=1 \
	--plan "$FSM_ROOT/tests/plans/matrix-stripes.ini"
# What reached the line, in order, with the kernel's own last word. Under this backpressure
# qemu's UART now and then doubles a byte, which the records' CRC rightly rejects; so the
# checks read the text itself rather than the records.
tail_lines() { tr -d '\r' <"$RUN/console.log" | grep -E '^(FSMREC [0-9a-f]+ \{"v":1,"type":"trailer"|fsmatrix: powering off|\[ *[0-9.]+\] reboot: Power down)'; }
ends_whole() {
	local t
	t=$(tr -d '\r' <"$RUN/console.log" | grep -E '^FSMREC [0-9a-f]+ \{"v":1,"type":"trailer"')
	[ -n "$t" ] || { echo "no trailer line"; return 1; }
	printf '%s\n' "$t" | grep -Eq '"ready_ms":[0-9]+\}$' || { echo "the trailer line is cut: ...${t: -60}"; return 1; }
}
in_order() {
	local got want
	got=$(tail_lines | sed -E 's/^FSMREC.*/trailer/; s/^\[.*/reboot/; s/^fsmatrix: powering off/powering-off/' | tr '\n' ' ')
	want="trailer powering-off reboot "
	[ "$got" = "$want" ] || { echo "the last lines came as: $got"; return 1; }
}
check "the guest powered off (the kernel's last line arrived)" grep -q 'reboot: Power down' "$RUN/console.log"
check "the trailer line arrived whole, to its closing brace" ends_whole
check "trailer, then powering off, then the kernel's power-down: nothing was left behind" in_order
rm -rf "$RUN/disks"
