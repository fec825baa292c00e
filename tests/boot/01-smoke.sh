# 01-smoke: the real image boots under qemu/run on four small virtio disks, shows the versions
# of its tools and the modules it loaded, writes its records to the FSMRESULTS disk, and
# powers off; the host copies the results into the run directory (issues 2 and 3). The plan,
# tests/boot/smoke.ini (one raw disk, ext4, 16 MiB streamed), goes in through the results disk.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

# smoke.ini as a user's plan would run it: the reference set and the disks' speed, which the
# other boot tests of smoke.ini turn off, left at their defaults
PLAN=$FSM_TEST_RUNS/01-smoke-plan/smoke.ini
mkdir -p "${PLAN%/*}" && sed '/^reference = /d; /^disk_speed = /d' "$(dirname "$0")/smoke.ini" >"$PLAN"
boot main --disks 4 --size 256M --timeout 300 --plan "$PLAN"
expect_status "the run completes: trailer printed, powered off (exit 0)" 0
expect_no_console "no kernel panic or oops" 'Kernel panic|Oops:|BUG:|Call Trace:'
expect_record "a header record opens the run" '.type == "header" and (.run | type == "string")'

# The pinned versions: the header holds each tool's own version line, and the
# console shows it too (records are on the console, progress lines between them).
hdr='select(.type == "header") | .tools'
expect_record "header: mdadm 4.2" "$hdr | (.mdadm // \"\") | test(\"v4\\\\.2\\\\b\")"
expect_record "header: mke2fs 1.47.0" "$hdr | (.mke2fs // \"\") | test(\"1\\\\.47\\\\.0\")"
expect_record "header: mkfs.xfs 6.1.0" "$hdr | (.[\"mkfs.xfs\"] // \"\") | test(\"6\\\\.1\\\\.0\")"
expect_record "header: busybox 1.35.0" "$hdr | (.busybox // \"\") | test(\"1\\\\.35\\\\.0\")"
expect_record "header: the /init version" "$hdr | (.init // \"\") | length > 0"
expect_record "header: the modules are Debian's own, signed: modules pristine and kernel.tainted without E (8192)" \
	'select(.type == "header") | .kernel.modules == "pristine" and (.kernel.tainted | type == "number") and ((.kernel.tainted / 8192 | floor) % 2 == 0)'

# The runner's disks reached the guest by serial, and the results disk was recognised.
expect_record "header lists the four disks fsmtest0..3 by serial" \
	'select(.type == "header") | [.disks[] | .serial // "" | select(test("^fsmtest[0-3]$"))] | unique | length == 4'
expect_record "header marks one disk as the results disk" \
	'select(.type == "header") | [.disks[] | select(.results == true)] | length == 1'

# The modules /init loaded itself, each with its time: at least virtio_blk (the disks) and
# vfat (the results partition).
mods='select(.type == "event" and .event == "modules") | .modules'
expect_record "modules event lists the loaded modules with their times" \
	"$mods | length > 0 and all(.[]; (.name | type == \"string\") and (.ms | type == \"number\"))"
expect_record "modules event: virtio_blk loaded" \
	"$mods | any(.[]; .name == \"virtio_blk\" and (.status == \"ok\" or .status == \"already\"))"
expect_record "modules event: vfat loaded" \
	"$mods | any(.[]; .name == \"vfat\" and (.status == \"ok\" or .status == \"already\"))"
# The modules come from a squashfs mounted through a loop device, which is never a disk.
expect_record "modules event: loop and squashfs loaded first, to mount the module image" \
	"$mods | (.[0].name == \"loop\" and .[0].status == \"ok\" and .[1].name == \"squashfs\" and .[1].status == \"ok\")"
expect_record "header: the module image's loop device is not among the disks" \
	'select(.type == "header") | (.disks | length > 0) and all(.disks[]; .name | startswith("loop") | not)'
expect_record "a trailer record closes the run" '.type == "trailer"'
# Drivers load only for hardware that asks (modalias): none of the image's SAS/RAID, cloud,
# NVMe or hardware watchdog drivers on a virtio-only guest, so they cost size, not time.
# The filesystem loads before the first cell (its warm-up, which runs the cell whole), after
# the boot is ready.
unasked='["mpt3sas","megaraid_sas","aacraid","hpsa","smartpqi","isci","mvsas","mptsas","sym53c8xx","vmw_pvscsi","nvme","hv_storvsc","xen_blkfront","usb_storage","uas","ahci","iTCO_wdt","sp5100_tco","wdat_wdt","ipmi_si","ipmi_watchdog","i6300esb","xfs","raid456"]'
loaded=$(records_console | jq -c -s '[.[] | select(.type == "event" and .event == "modules") | .modules[] | select(.status == "ok") | .name]')
if extra=$(jq -e -n -c --argjson l "$loaded" --argjson u "$unasked" '$l - ($l - $u) | select(length == 0)' 2>/dev/null); then
	ok "no driver loaded for hardware the guest lacks"
else
	fail "no driver loaded for hardware the guest lacks" "loaded anyway: $(jq -n -c --argjson l "$loaded" --argjson u "$unasked" '$l - ($l - $u)')"
fi
order=$(records_console | jq -s -c '[.[] | select(.type == "event" or .type == "reference") |
	if .type == "reference" then "reference" elif .event == "cell-start" or .event == "warmup-start" then "cell" elif .event == "modules" then (if any(.modules[]; .name == "ext4") then "ext4" else "boot" end) else empty end]')
# the first to need ext4 is the reference set's RAM disk, before the first cell
if [ "$(jq -n -c --argjson o "$order" '$o[0:4]')" = '["boot","ext4","reference","cell"]' ]; then
	ok "ext4 is loaded when first needed, not at boot"
else
	fail "ext4 is loaded when first needed, not at boot" "modules events, references and cell starts in order: $order"
fi

check "the reference set at the start and the end, each with its four figures" bash -c '
	jq -e -s "[.[] | select(.type == \"reference\")] | length == 2 and map(.phase) == [\"start\", \"end\"] and
		all(.[]; .figures | keys | length == 4)" "$1"/results/*.jsonl >/dev/null' _ "$RUN"
expect_record "the disks' own speed measured before the first cell (the plan's default 500ms)" \
	'select(.type == "event" and .event == "disk-speed") | .ms_each == 500 and (.disks | length) >= 1'

# The plan went in through the results disk (fsmatrix/plan.ini), and its one cell ran.
expect_record "header: the plan is smoke.ini, read from the results disk" \
	'select(.type == "header") | .plan.name == "smoke" and .plan.source == "results"'
expect_record "the cell disk/ext4/defaults/seq ran ok with a throughput" \
	'select(.type == "cell") | (.cell | test("^disk/ext4/")) and .status == "ok" and ((.result.mbps // 0) > 0)'
expect_record "the trailer counts that one cell as ok" \
	'select(.type == "trailer") | .counts.ok == 1'

# The guest wrote onto FSMRESULTS, and the host read it back without mounting.
expect_file "the results disk's records were copied to the run directory" 'results/*.jsonl'
expect_file "the results disk's console log was copied to the run directory" 'results/*.console.log'
expect_result_record "the copied records hold the header" '.type == "header"'
expect_result_record "the copied records hold the trailer" '.type == "trailer"'
run_id=$(records_console | jq -r 'select(.type == "header") | .run' 2>/dev/null | head -n 1)
check "the results file is named after the guest's run id ($run_id)" test -n "$run_id" -a -s "$RUN/results/$run_id.jsonl"
# The two copies of the records are the same records.
same_records() {
	local d
	d=$(diff <(records_console) "$RUN/results/$run_id.jsonl" 2>&1) && return 0
	echo "they differ: $(printf '%s' "$d" | head -n 3 | cut -c1-70 | tr '\n' ' ')"
	return 1
}
check "records on the console and in the results file are identical" same_records
check "the test disks are removed after the run" test ! -e "$RUN/disks/fsmtest0.img"
