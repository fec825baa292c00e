# 38-device-state: each taken disk's own state, read from the device with the kernel's
# pass-through ioctls, on the buses a storage engineer meets: an ATA disk behind AHCI (SAT's
# ATA PASS-THROUGH: IDENTIFY and SMART), a SCSI disk behind a MegaRAID HBA (INQUIRY, the
# serial number page, MODE SENSE's caching page; qemu's scsi-hd answers no LOG SENSE, so its
# health is unavailable with the device's own sense data), NVMe (Identify, Get Features,
# the SMART / health log) and virtio-blk (its cache mode only). The header's devices hold
# identity, write cache (device and sysfs) and health; every cell record holds each
# member's health before and after it. The write cache is read both ways (qemu's
# write-cache=off on the SCSI disk). On NVMe, the controller's critical warning is raised
# through QMP while the first cell runs: that cell, and only that one, is warned.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
PLAN=$FSM_ROOT/tests/plans/device-health.ini
dev() { printf 'select(.type == "header") | .devices[0] | %s' "$1"; }

boot ahci --disk-bus ahci --disks 1 --size 256M --timeout 600 --plan "$PLAN"
expect_status "ahci: the run completes (exit 0)" 0
expect_record "ahci: an ATA disk, identity from IDENTIFY DEVICE" \
	"$(dev '.kind == "ata" and .model == "QEMU HARDDISK" and .serial == "fsmtest0" and (.firmware | length > 0)')"
expect_record "ahci: write cache on, as the device and the kernel say" \
	"$(dev '.write_cache.device == "on" and .write_cache.sysfs == "write back"')"
expect_record "ahci: SMART read: temperature and reallocated sectors" \
	"$(dev '(.health.temperature_c | type == "number") and .health.reallocated == 0')"
expect_record "ahci: the fingerprint's write cache is the device's" \
	'select(.type == "header") | .conditions.inputs.disks[0].write_cache == "on"'
expect_record "ahci: every cell has the disk's health before and after, and no device warning" \
	'select(.type == "cell") | (.devices | length == 1) and .devices[0].kind == "ata" and (.devices[0].before.temperature_c | type == "number") and (.devices[0].after.reallocated == 0) and (.devices_ms | type == "number") and ([.warnings[] | select(startswith("device:"))] | length == 0)'

boot megasas --disk-bus megasas --disks 1 --size 256M --timeout 600 --plan "$PLAN" --write-cache off
expect_status "megasas: the run completes (exit 0)" 0
expect_record "megasas: a SCSI disk, identity from INQUIRY and the serial number page" \
	"$(dev '.kind == "scsi" and .model == "QEMU HARDDISK" and .serial == "fsmtest0"')"
expect_record "megasas: write cache off (write-cache=off), from the caching page" \
	"$(dev '.write_cache.device == "off" and .write_cache.sysfs == "write through"')"
expect_record "megasas: no log page answered: health unavailable with the device's sense data" \
	"$(dev '.health.unavailable | test("ILLEGAL REQUEST")')"

# The NVMe boot: the critical warning raised while cell 1 writes its 64 MiB, on a disk capped
# at 16 MB/s so that it lasts 4 s on any host.
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-nvme
# an earlier run's console must not set the injector off before this boot has begun
rm -rf "$RUN" "$RUN.injected"
(
	for _ in $(seq 600); do
		if grep -q '\[1/2\] .*running' "$RUN/console.log" 2>/dev/null; then
			sleep 1
			"$FSM_ROOT/qemu/monitor" --qmp "$RUN" '{"execute":"qom-set","arguments":{"path":"/machine/peripheral/fsmtest0","property":"smart_critical_warning","value":4}}' >"$RUN.injected" 2>&1
			break
		fi
		sleep 0.2
	done
) &
injector=$!
boot nvme --disk-bus nvme --disks 1 --size 256M --timeout 600 --plan "$PLAN" --disk-mbps 16
wait "$injector"
expect_status "nvme: the run completes (exit 0)" 0
check "nvme: the critical warning was raised through QMP during cell 1" grep -q '"return"' "$RUN.injected"
expect_record "nvme: identity from Identify Controller, write cache from Get Features" \
	"$(dev '.kind == "nvme" and .model == "QEMU NVMe Ctrl" and .serial == "fsmtest0" and .write_cache.device == "on"')"
expect_record "nvme: the health log: temperature, the device's warning threshold, no critical warning" \
	"$(dev '(.health.temperature_c | type == "number") and (.health.temperature_warn_c | type == "number") and .health.critical_warning == 0 and .health.media_errors == 0')"
expect_record "nvme: cell 1 is warned of the critical warning, naming the disk" \
	'select(.type == "cell" and .index == 1) | (.devices[0].after.critical_warning == 4) and ([.warnings[] | select(test("^device: nvme0n1: critical_warning gained 0x04"))] | length == 1)'
expect_record "nvme: cell 2, where nothing changed, is not" \
	'select(.type == "cell" and .index == 2) | .devices[0].before.critical_warning == 4 and ([.warnings[] | select(startswith("device:"))] | length == 0)'
expect_record "nvme: the boot's last reading (the devices end event) holds the warning too" \
	'select(.type == "event" and .event == "devices" and .phase == "end") | .disks[0].health.critical_warning == 4'
check "nvme: the report lists the device warning under Problems" bash -c '
	"$1"/out/fsmatrix report "$2" | sed -n "/^Problems/,\$p" | grep -q "critical_warning gained 0x04"' _ "$FSM_ROOT" "$RUN"

boot virtio --disks 1 --size 256M --timeout 600 --plan "$PLAN"
expect_status "virtio: the run completes (exit 0)" 0
expect_record "virtio: the cache mode from the device, health unavailable with the reason" \
	"$(dev '.kind == "virtio" and .serial == "fsmtest0" and .write_cache.device == "on" and (.health.unavailable | test("virtio-blk"))')"
