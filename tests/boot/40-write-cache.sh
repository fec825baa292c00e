# 40-write-cache: the volatile write cache as a plan axis (tests/plans/write-cache.ini:
# write_cache = off, on on one raw disk). Each cell sets it through the device before mkfs
# (sd's cache_type, which sends MODE SELECT, or SET FEATURES through libata; NVMe Set
# Features), reads it back from the device, and puts back what it found after the cell: the
# second cell finds the first one's undone, and the devices event after the last cell shows
# the disk as the header found it. On AHCI, a MegaRAID HBA (its disks reported without a cache
# by qemu's write-cache=off, then given one by the plan) and NVMe (qemu's, started with its
# cache off: the guest may turn it on, and the kernel, which saw a cache present at probe,
# still believes "write back": a warning on each cell). A virtio disk whose cache mode the
# guest may not change (config-wce=off) refuses: an error cell with the reason, not a silent
# run. On AHCI a second disk, not handed over, stays byte-identical.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
PLAN=$FSM_ROOT/tests/plans/write-cache.ini
wc_cell() { printf 'select(.type == "cell" and .axes.write_cache == "%s") | %s' "$1" "$2"; }
header_wc() { printf 'select(.type == "header") | .devices[0].write_cache.device == "%s"' "$1"; }
end_wc() { printf 'select(.type == "event" and .event == "devices" and .phase == "end") | (.disks | length == 1) and .disks[0].write_cache == "%s"' "$1"; }

both_ways() { # BUS FOUND: both cells ok, each read back as asked, FOUND put back
	local bus=$1 found=$2 other
	[ "$found" = on ] && other=off || other=on
	expect_status "$bus: the run completes (exit 0)" 0
	expect_record "$bus: the header finds the write cache $found on the device" "$(header_wc "$found")"
	expect_record "$bus: write_cache = $other: set through the device, read back $other, no warning" \
		"$(wc_cell "$other" '.status == "ok" and (.tunables.found.write_cache | to_entries[0].value) == "'"$found"'" and (.tunables.effective.write_cache | to_entries[0].value) == "'"$other"'" and .tunables_ignored == [] and (.cell | test("-wc'"$other"'/"))')"
	expect_record "$bus: write_cache = $found: found as the header found it (put back after the other cell)" \
		"$(wc_cell "$found" '.status == "ok" and (.tunables.found.write_cache | to_entries[0].value) == "'"$found"'" and (.tunables.effective.write_cache | to_entries[0].value) == "'"$found"'"')"
	expect_record "$bus: after the last cell the device has its write cache $found again" "$(end_wc "$found")"
}

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-ahci
rm -rf "$RUN" && mkdir -p "$RUN/disks"
truncate -s 512M "$RUN/disks/fsmtest0.img"
head -c 512M /dev/urandom >"$RUN/disks/fsmtest1.img"
snapshot "$RUN/disks/fsmtest1.img"
boot ahci --disk-bus ahci --disks 2 --size 512M --reuse --keep --no-select --timeout 600 \
	--plan "$PLAN" --append "fsmatrix.disks=serial:fsmtest0"
both_ways ahci on
expect_record "ahci: the write cache step is in the cell's steps, on the taken disk only" \
	"$(wc_cell off '[.steps[] | select(.argv[0] == "write_cache")] | length == 1 and .[0].argv[2] == "off" and .[0].status == 0')"
sha256_unchanged "ahci: the disk not handed over is byte-identical" "$RUN/disks/fsmtest1.img"

boot megasas --disk-bus megasas --disks 1 --size 512M --timeout 600 --plan "$PLAN" --write-cache off
both_ways megasas off

boot nvme --disk-bus nvme --disks 1 --size 512M --timeout 600 --plan "$PLAN"
both_ways nvme on

boot nvme-off --disk-bus nvme --disks 1 --size 512M --timeout 600 --plan "$PLAN" --write-cache off
both_ways nvme-off off
expect_record "nvme-off: the kernel, which saw a cache present at probe, believes write back: a warning" \
	"$(wc_cell off '[.warnings[] | select(test("^device: nvme0n1: the device.s write cache is off, the kernel believes .write back."))] | length == 1')"

boot virtio-fixed --disks 1 --size 512M --timeout 600 --plan "$PLAN" --write-cache-fixed
expect_status "virtio, cache mode fixed: the run completes (exit 0)" 0
expect_record "virtio, cache mode fixed: write_cache = off is refused: an error cell with the reason" \
	"$(wc_cell off '.status == "error" and (.error | test("write_cache = off on vdb: .*read-only: the device does not let its cache mode be changed"))')"
expect_record "virtio, cache mode fixed: write_cache = on is what the device has: the cell runs" \
	"$(wc_cell on '.status == "ok" and (.tunables.effective.write_cache.vdb == "on")')"
expect_record "virtio, cache mode fixed: the device is as found after the run" "$(end_wc on)"
