# tests/boot/media.sh: what the boot-media tests (2x-*.sh) share, sourced after lib.sh.
# They boot out/fsmatrix-usb.img through SeaBIOS and OVMF, and out/pxe/ over qemu's TFTP.
# The stick is qemu's usb-storage on an xhci controller (qemu/run --boot-bus usb, its
# default), as on bare hardware: under TCG it costs only a few seconds more than virtio
# (a dry run boots in ~16 s either way), and it is the path where /init must load
# xhci, usb-storage and sd_mod and wait for USB enumeration before it finds its own stick.
#
#   usb_test_copy IMG PLAN PARAMS   a copy of the stick (the shipped one stays as built) with
#                                   PLAN as fsmatrix/plan.ini and a boot menu whose default
#                                   is "run" with PARAMS added, after a 0.1 s timeout
#   pxe_test_copy DIR PARAMS        the same for a copy of out/pxe (pxelinux.cfg/default)
#   stick_records IMG               the records in fsmatrix/results/*.jsonl on IMG, read
#                                   with mtools (no mount, no loop device)
#   stick_file IMG PATH             one file of the stick's FAT partition on stdout
# shellcheck shell=bash

USB_IMG=${FSM_TEST_USB:-$FSM_ROOT/out/fsmatrix-usb.img}
PXE_DIR=${FSM_TEST_PXE:-$FSM_ROOT/out/pxe}
export MTOOLS_SKIP_CHECK=1 MTOOLS_NO_VFAT=0

# mtools' IMG@@OFFSET for the first partition, wherever the builder put it.
stick_part() {
	local start
	start=$(sfdisk -d "$1" 2>/dev/null | sed -n 's/^[^:]*1 : start= *\([0-9]*\).*/\1/p')
	[ -n "$start" ] || return 1
	printf '%s@@%s\n' "$1" $((start * 512))
}

stick_file() { # IMG PATH
	local p
	p=$(stick_part "$1") && mtype -t -i "$p" "::$2"
}

# A syslinux config whose default is "run" with PARAMS, booted after a 0.1 s timeout.
_cfg_run() { # FILE PARAMS
	sed -i -e 's/^TIMEOUT .*/TIMEOUT 1/' -e 's/^DEFAULT .*/DEFAULT run/' \
		-e "/^LABEL run\$/,/APPEND/ s|^\\(  APPEND .*\\)|\\1 $2|" "$1"
	grep -qF -- " $2" "$1"
}

# The same for GRUB's menu (UEFI): default "run" with PARAMS on its linux line, no wait.
_grub_run() { # FILE PARAMS
	sed -i -e 's/^set timeout=.*/set timeout=0/' -e 's/^set default=.*/set default=run/' \
		-e "/--id run {\$/,/^}/ s|^\\(\tlinux .*\\)|\\1 $2|" "$1"
	grep -qF -- " $2" "$1"
}

usb_test_copy() { # IMG PLAN PARAMS
	local img=$1 p
	cp --sparse=always "$USB_IMG" "$img" && p=$(stick_part "$img") &&
		mcopy -o -i "$p" "$2" ::fsmatrix/plan.ini &&
		mcopy -o -n -i "$p" ::syslinux.cfg "$img.cfg" &&
		_cfg_run "$img.cfg" "$3" &&
		mcopy -o -i "$p" "$img.cfg" ::syslinux.cfg &&
		mcopy -o -n -i "$p" ::EFI/BOOT/grub.cfg "$img.grub" &&
		_grub_run "$img.grub" "$3" &&
		mcopy -o -i "$p" "$img.grub" ::EFI/BOOT/grub.cfg
}

pxe_test_copy() { # DIR PARAMS
	rm -rf "$1" && cp -r "$PXE_DIR" "$1" && _cfg_run "$1/pxelinux.cfg/default" "$2"
}

stick_records() { # IMG
	local p d
	p=$(stick_part "$1") || return 1
	d=$(mktemp -d) || return 1
	mcopy -s -n -i "$p" ::fsmatrix/results "$d/" 2>/dev/null
	cat "$d"/results/*.jsonl 2>/dev/null
	rm -rf "$d"
}

# CHECK IMG FILTER: a record read back from the stick with mtools makes the jq FILTER true.
expect_stick_record() {
	local n out
	n=$(stick_records "$2" | grep -c '^{')
	if out=$(stick_records "$2" | jq -e -s "[.[] | ($3)] | map(select(. != null and . != false)) | length > 0" 2>&1); then
		ok "$1"
	else
		fail "$1" "no record of the $n in fsmatrix/results/ on $(basename "$2") makes $3 true${out:+ ($out)}"
	fi
}

# CHECK REGEX: as expect_console, with terminal escapes removed first (OVMF draws its console,
# and syslinux.efi's text, one cursor-positioned character at a time).
expect_console_text() {
	if sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' "$RUN/console.log" 2>/dev/null | grep -Eq -- "$2"; then
		ok "$1"
	else
		fail "$1" "no console line matches /$2/ (escapes removed)"
	fi
}

# expect_stick_smoke_run PREFIX: what every stick boot that runs the smoke plan must show,
# whatever the firmware: the run on the console and in the header, and the records left on
# the run's copy of the stick. PREFIX (the firmware, say) starts each check's name.
expect_stick_smoke_run() {
	local p=$1
	expect_no_console "${p}no kernel panic or oops" 'Kernel panic|Oops:|BUG:|Call Trace:'
	expect_record "${p}header: the kernel command line is the boot menu's run entry" \
		'select(.type == "header") | .kernel.cmdline | test("BOOT_IMAGE=/vmlinuz .*console=ttyS0,115200 fsmatrix\\.disks=serial:fsmtest\\*")'
	expect_record "${p}header: the stick is a USB disk" \
		'select(.type == "header") | .disks[] | select(.results) | .transport == "usb"'
	expect_record "${p}header: the stick is the results disk and the boot medium, never taken" \
		'select(.type == "header") | [.disks[] | select(.results)] | length == 1 and .[0].boot == true and .[0].verdict == "results-disk"'
	expect_record "${p}header: fsmtest0 is taken" \
		'select(.type == "header") | .disks[] | select(.serial == "fsmtest0") | .verdict == "taken"'
	expect_record "${p}header: the plan is smoke.ini, read from the stick's fsmatrix/plan.ini" \
		'select(.type == "header") | .plan.name == "smoke" and .plan.source == "results"'
	expect_record "${p}the cell disk/ext4/defaults/seq ran ok" \
		'select(.type == "cell") | (.cell | test("^disk/ext4/")) and .status == "ok"'
	expect_record "${p}a trailer record closes the run" '.type == "trailer"'
	# The run's copy of the stick, read with mtools as a user would read it on a laptop.
	expect_stick_record "${p}on the stick: the header" "$RUN/results.img" '.type == "header"'
	expect_stick_record "${p}on the stick: the cell, ok" "$RUN/results.img" 'select(.type == "cell") | .status == "ok"'
	expect_stick_record "${p}on the stick: the trailer" "$RUN/results.img" '.type == "trailer"'
	check "${p}on the stick: the console log beside the records" \
		bash -c "mdir -b -i '$(stick_part "$RUN/results.img")' ::fsmatrix/results | grep -q 'console\\.log\$'"
	sha256_unchanged "${p}the shipped out/fsmatrix-usb.img is unchanged" "$USB_IMG"
}

# expect_resumed_by_menu MENU [PREFIX]: the boot of $RUN hung in cell 2 (fsmatrix.debug_hang=2), the
# watchdog rebooted it, the boot loader's default (the resume entry) resumed and ended the
# run, and MENU, the boot menu's file on the stick, is put back as $menu_before (its sha256
# line before the run) says. PREFIX starts each check's name.
expect_resumed_by_menu() {
	local menu=$1 p=${2:-} records
	expect_status "${p}the run completes after the watchdog's reboot (exit 0)" 0
	expect_console "${p}PID 1 hung in cell 2" 'debug_hang: cell 2, attempt 1: freezing'
	check "${p}the machine booted twice (the watchdog rebooted it)" \
		test "$(grep -c 'fsmatrix: /init .* starting' "$RUN/console.log")" = 2
	check "${p}the second boot was the menu's default, not dry: no fsmatrix.dry=1 on its command line" \
		bash -c '! grep "Kernel command line:" "$1" | sed -n 2p | grep -q "fsmatrix.dry=1"' _ "$RUN/console.log"
	expect_console "${p}the second boot resumed the run" 'fsmatrix: resuming run '
	# qemu/run boots a copy of the stick: RUN/results.img, whose records it copied to RUN/results
	records=$(cat "$RUN"/results/*.jsonl 2>/dev/null)
	check "${p}cell 2 interrupted once, then ok; the run has its trailer" bash -c '
		test "$(jq -r -s "[.[] | select(.type == \"cell\") | \"\(.index):\(.status):\(.attempt)\"] | join(\" \")" <<<"$1")" = \
			"1:ok:1 2:interrupted:1 2:ok:2" && test "$(jq -s "[.[] | select(.type == \"trailer\")] | length" <<<"$1")" = 1' _ "$records"
	expect_console "${p}the menu was put back at the end" "fsmatrix: boot menu: put back as it was \\($menu\\)"
	check "${p}the stick's $menu is byte for byte as before the run" \
		test "$(stick_file "$RUN/results.img" "$menu" | sha256sum)" = "$menu_before"
}
