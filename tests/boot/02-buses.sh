# 02-buses: every other disk bus of qemu/run (01-smoke covers virtio-blk): /init loads the
# controller's driver itself, sees each test disk by the serial qemu/run gave it, takes it
# through fsmatrix.disks=serial:fsmtest* (on the SAS HBA through its SAS address, wwn:), and
# runs smoke.ini's one ext4 cell on it.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

# bus and the driver that must have been loaded for it
for pair in nvme:nvme virtio-scsi:virtio_scsi ahci:ahci ide:ata_piix megasas:megaraid_sas \
	mptsas:mptsas pvscsi:vmw_pvscsi lsi:sym53c8xx uas:uas usb:usb_storage; do
	bus=${pair%%:*} driver=${pair#*:} select=()
	# the SAS HBA's disks are taken by their SAS address instead of their serial
	[ "$bus" != mptsas ] || select=(--no-select --append "fsmatrix.disks=wwn:naa.5000000f5a00000*")
	boot "$bus" --disks 2 --size 256M --disk-bus "$bus" --timeout 300 --plan "$(dirname "$0")/smoke.ini" "${select[@]}"
	expect_status "$bus: the run completes (exit 0)" 0
	expect_record "$bus: /init loaded $driver" \
		"select(.type == \"event\" and .event == \"modules\") | any(.modules[]; .name == \"$driver\" and (.status == \"ok\" or .status == \"already\"))"
	expect_record "$bus: fsmtest0 and fsmtest1 are seen with their serial and taken" \
		'select(.type == "header") | [.disks[] | select((.serial // "" | test("^fsmtest[01]$")) and .verdict == "taken")] | length == 2'
	expect_record "$bus: the ext4 cell ran ok on it" \
		'select(.type == "cell") | (.cell | test("^disk/ext4/")) and .status == "ok"'
	[ "$bus" != mptsas ] || expect_record "$bus: each disk's wwn is its SAS address and took it" \
		'select(.type == "header") | [.disks[] | select(.serial // "" | test("^fsmtest[01]$")) | select(.reason | test("wwn:")) | .wwn] | sort == ["naa.5000000f5a000000", "naa.5000000f5a000001"]'
done
