#!/bin/bash
# tests/disks/run.sh: golden-file tests of `fsmatrix disks` on the fixture machine
# tests/fixtures/sys-basic (written by tests/fixtures/make-fixtures): what each
# fsmatrix.disks= / fsmatrix.wipe= / boot medium would take, and why the rest is not taken.
#
#   tests/disks/run.sh [--update] [FSMATRIX]     (FSMATRIX defaults to out/fsmatrix)
#
# One line per case, "ok - disks/NAME" or "FAIL - disks/NAME: why" and the diff as "#" lines.
# --update rewrites tests/disks/expected/ from the current output (review it with git diff).
# Runs from the repository root, so the paths in the outputs read the same everywhere.
set -u
GOLDEN_PREFIX=disks GOLDEN_DIR=tests/disks/expected
. "$(dirname "$0")/../golden.sh"
S=tests/fixtures/sys-basic/sys

# The table of cases: name, expected file, arguments.
# Nothing named: nothing taken, each disk says how to name it; the results disk says what it is.
golden none            none.txt            disks "$S"
# A serial glob takes the four blank test disks; every other disk is reported as not named,
# and the name that matches nothing (vdz) is listed.
golden serial-glob     serial-glob.txt     disks "$S" --disks 'serial:fsmtest*,vdz'
# Named disks: a blank one is taken, an ext4 one only because --wipe names it, the results
# disk never.
golden names-wipe      names-wipe.txt      disks "$S" --disks vdb,vdf,vdh,sda --wipe vdf
# Named with data but not in --wipe: refused with the way to allow it.
golden names-no-wipe   names-no-wipe.txt   disks "$S" --disks vdf,vdg,vdi,vdj,vdk,sdb
# wwn: and path: globs; --wipe allows the data disk and the swap.
golden wwn-path        wwn-path.txt        disks "$S" --disks 'wwn:eui.*,path:*-ata-*,vdk' --wipe vdk,sdb
# blank takes only the disks with no signature, never the boot medium.
golden blank-boot      blank-boot.txt      disks "$S" --disks blank --wipe vdh --boot sda
# The boot medium named by a partition marks its disk.
golden boot-partition  boot-partition.txt  disks "$S" --disks vdb --boot vdh1
golden boot-unknown    boot-unknown.txt    disks "$S" --disks vdb --boot nosuch
# --wipe alone takes nothing.
golden wipe-only       wipe-only.txt       disks "$S" --wipe vdb
# Device nodes that cannot be read: unreadable, so not blank, so not taken.
golden dev-missing     dev-missing.txt     disks "$S" --disks vdb --dev tests/fixtures/no-such-dev
# Errors: a spec of an unknown form, a sysfs tree that is not there, no SYSROOT.
golden bad-spec        bad-spec.txt        disks "$S" --disks bogus:x
golden no-sysroot      no-sysroot.txt      disks tests/fixtures/no-such-sys
golden usage           usage.txt           disks

exit $golden_failed
