# qemu/lib/relaunch.sh: sourced by qemu/run. One boot of the guest (launch_once), and whether
# to boot it again (relaunch_wanted): a guest that rebooted in the middle of a run (its
# watchdog, a panic, a hung cell's reboot) is booted again with the same disks, the same
# results disk and the same command line, so that the run resumes under qemu as it does on
# hardware. qemu runs with -no-reboot, so a reset ends the qemu process; a power-off ends it
# too, and the kernel says "reboot: Power down" first. At most retries + 1 boots in a row
# that add no cell record (the plan's retries, 1 by default) are followed by another.
# shellcheck shell=bash

# The plan's retries (its [global] key), else the default 1.
plan_retries() { # PLAN
	local r=
	[ -z "${1:-}" ] || [ ! -r "$1" ] ||
		r=$(awk -F= '/^[ \t]*\[/ { g = ($0 ~ /^[ \t]*\[global\]/) }
			g && $1 ~ /^[ \t]*retries[ \t]*$/ { v = $2; sub(/[;#].*/, "", v); gsub(/[ \t\r]/, "", v); print v; exit }' "$1")
	case $r in '' | *[!0-9]*) echo 1 ;; *) echo "$r" ;; esac
}

# The console log's cell records with a final status (all but interrupted).
final_cells() {
	[ -f console.log ] || { echo 0; return; }
	grep -a '^FSMREC [0-9a-f]* {"v":1,"type":"cell"' console.log | grep -avc '"status":"interrupted"'
}

# One boot: qemu under the time left, with the paced console reader when --serial-rate asks.
# Sets qrc, and interrupted on a signal.
launch_once() { # SECONDS_LEFT
	reader=
	if [ -n "$serial_rate" ]; then
		rm -f console.pipe.in console.pipe.out
		mkfifo console.pipe.in console.pipe.out || die "unable to make the console pipes in $run_dir"
		# perl is in every Debian (perl-base is essential). F_SETPIPE_SZ (1031) shrinks the
		# pipe to one page, so that the line, not a 64 KiB pipe buffer, sets the pace.
		perl -e 'my ($path, $rate) = @ARGV;
			open(my $f, "<", $path) or die "qemu/run: unable to open $path: $!\n";
			fcntl($f, 1031, 4096);
			my $chunk = $rate >= 64 ? int($rate / 64) : 1;
			$| = 1;
			while (sysread($f, my $b, $chunk)) {
				syswrite(STDOUT, $b);
				select(undef, undef, undef, length($b) / $rate);
			}' console.pipe.out "$serial_rate" &
		reader=$!
	fi
	# --foreground keeps qemu in the terminal's process group, so that it can read the
	# console from a tty without being stopped, and ^C reaches it. It runs in the background
	# (stdin handed over explicitly) so that a SIGTERM to qemu/run is passed on at once
	# rather than after qemu ends by itself.
	timeout --foreground -k 10 "$1" "${cmd[@]}" <&0 &
	tpid=$!
	trap 'interrupted=1; kill -TERM "$tpid" 2>/dev/null' INT TERM HUP
	while :; do
		wait "$tpid"
		qrc=$?
		kill -0 "$tpid" 2>/dev/null || break
	done
	trap - INT TERM HUP
	if [ -n "$reader" ]; then
		# what qemu handed to the line before it ended is still in the pipe: let it through
		wait "$reader" 2>/dev/null
		rm -f console.pipe.in console.pipe.out
	fi
}

# Whether the boot whose console began at byte OFFSET of console.log ended in a reboot in
# the middle of a run: qemu ended by itself, the run had begun (a header record), and neither
# its trailer nor the kernel's power-off came. Sets relaunch_how (what ended it).
relaunch_wanted() { # OFFSET
	local part
	part=$(tail -c +"$(($1 + 1))" console.log 2>/dev/null | tr -d '\r')
	grep -aq '^FSMREC [0-9a-f]* {"v":1,"type":"header"' <<<"$part" || return 1
	! grep -aq '^FSMREC [0-9a-f]* {"v":1,"type":"trailer"' <<<"$part" || return 1
	! grep -aq 'reboot: Power down' <<<"$part" || return 1
	if grep -aq 'Kernel panic' <<<"$part"; then
		relaunch_how="a kernel panic ($(grep -am1 -o 'Kernel panic.*' <<<"$part" | cut -c1-120))"
	elif grep -aq 'fsmatrix: HUNG: ' <<<"$part"; then
		relaunch_how="the reboot after a hung cell"
	elif grep -aq 'Initiating system reboot' <<<"$part"; then
		relaunch_how="the watchdog's reboot"
	else
		relaunch_how="a reset or reboot"
	fi
	return 0
}

# The console log is appended to from the second boot on, so that it holds every boot.
console_append() {
	local j
	for j in "${!cmd[@]}"; do
		cmd[j]=${cmd[j]/,logappend=off/,logappend=on}
	done
}

# Boots the guest until it ends otherwise than by a reboot in the middle of its run, or
# retries + 1 boots in a row add no cell record. Sets qrc, boots, and gave_up (why, when
# it stopped booting it again).
run_boots() {
	local retries off finals stalls=0 left
	retries=$(plan_retries "$plan")
	boots=0 gave_up=
	while :; do
		boots=$((boots + 1))
		off=$(stat -c %s console.log 2>/dev/null || echo 0)
		finals=$(final_cells)
		left=$((timeout_s - ($(date +%s) - start)))
		[ "$left" -gt 0 ] || left=1
		launch_once "$left"
		[ "$interrupted" = 0 ] && [ "$qrc" = 0 ] && [ "$noreboot" = 1 ] || return
		relaunch_wanted "$off" || return
		if [ "$(final_cells)" -gt "$finals" ]; then stalls=0; else stalls=$((stalls + 1)); fi
		if [ "$stalls" -gt $((retries + 1)) ]; then
			gave_up="the guest rebooted $stalls times in a row without a new cell record (the plan allows $retries retr$([ "$retries" = 1 ] && echo y || echo ies)): not booted again"
			return
		fi
		say "boot $boots ended in $relaunch_how in the middle of the run: booting the guest again (boot $((boots + 1)), the same disks and results disk) to resume it"
		console_append
	done
}
