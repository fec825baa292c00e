# 02-buses: every other disk bus of qemu/run (01-smoke covers virtio-blk), in one boot as a
# server with several controllers is: two test disks on each of ten buses (qemu/run
# --disk-bus with one bus per disk). /init loads each controller's driver itself, sees each
# disk by the serial qemu/run gave it and takes it through fsmatrix.disks= (on the SAS HBA
# through its SAS address, wwn:, not its serial), and runs buses.ini's one cell: ext4 on a
# raid0 of the twenty, which writes to every member, so through every driver. A
# twenty-first disk, a third on the MegaRAID HBA and not handed over, stays byte-identical.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

# bus and the driver that must have been loaded for it
pairs=(nvme:nvme virtio-scsi:virtio_scsi ahci:ahci ide:ata_piix megasas:megaraid_sas
	mptsas:mptsas pvscsi:vmw_pvscsi lsi:sym53c8xx uas:uas usb:usb_storage)
buses= select=
for ((b = 0; b < ${#pairs[@]}; b++)); do
	bus=${pairs[b]%%:*}
	buses+=${buses:+,}$bus,$bus
	# the SAS HBA's disks are taken by their SAS address instead of their serial
	[ "$bus" = mptsas ] || select+=${select:+,}serial:fsmtest$((2 * b)),serial:fsmtest$((2 * b + 1))
done
select+=,wwn:naa.5000000f5a00000*
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-all
rm -rf "$RUN" && mkdir -p "$RUN/disks"
for ((i = 0; i < 20; i++)); do fallocate -l 256M "$RUN/disks/fsmtest$i.img"; done
head -c 64M /dev/urandom >"$RUN/disks/fsmtest20.img"
truncate -s 256M "$RUN/disks/fsmtest20.img"
snapshot "$RUN/disks/fsmtest20.img"
boot all --reuse --keep --disks 21 --size 256M --disk-bus "$buses,megasas" --timeout 600 \
	--plan "$FSM_ROOT/tests/plans/buses.ini" --no-select --append "fsmatrix.disks=$select"
expect_status "the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "the raid0 of the twenty disks ran its ext4 cell ok" \
	jq -e -s '[.[] | select(.type == "cell")] | length == 1 and .[0].status == "ok" and (.[0].cell | test("^all-c64k/ext4/"))' "$j"
for ((b = 0; b < ${#pairs[@]}; b++)); do
	bus=${pairs[b]%%:*} driver=${pairs[b]#*:} s0=fsmtest$((2 * b)) s1=fsmtest$((2 * b + 1))
	expect_record "$bus: /init loaded $driver" \
		"select(.type == \"event\" and .event == \"modules\") | any(.modules[]; .name == \"$driver\" and (.status == \"ok\" or .status == \"already\"))"
	expect_record "$bus: $s0 and $s1 are seen with their serial and taken" \
		"select(.type == \"header\") | [.disks[] | select((.serial // \"\") as \$s | (\$s == \"$s0\" or \$s == \"$s1\") and .verdict == \"taken\")] | length == 2"
	# the members' names are the kernel's (sdX, nvmeXnY): the header maps the serials to them
	check "$bus: both its disks carried the cell's writes" jq -e -s --arg s0 "$s0" --arg s1 "$s1" '
		([.[] | select(.type == "header") | .disks[] | select(.serial == $s0 or .serial == $s1) | .name] | unique) as $names
		| [.[] | select(.type == "cell") | .bottleneck.inputs.members[] | select(.name as $n | $names | index($n)) | select(.write_mb > 0)]
		| length == 2' "$j"
done
expect_record "mptsas: each disk's wwn is its SAS address and took it" \
	'select(.type == "header") | [.disks[] | select(.serial // "" | test("^fsmtest1[01]$")) | select(.reason | test("wwn:")) | .wwn] | sort == ["naa.5000000f5a000000", "naa.5000000f5a000001"]'
expect_record "the disk not handed over (megasas, fsmtest20) is seen and not taken" \
	'select(.type == "header") | [.disks[] | select(.serial == "fsmtest20" and .verdict != "taken")] | length == 1'
sha256_unchanged "the disk not handed over is byte-identical" "$RUN/disks/fsmtest20.img"
rm -rf "$RUN/disks"
