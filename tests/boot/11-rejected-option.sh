# 11-rejected-option: options the kernel or mkfs refuses (issues 5 and 8): a mount option
# ext4 rejects and two invalid mkfs options give error cells carrying the kernel's and the
# tools' own messages; the cell after the failing one still runs, and the run finishes.
# A plan with mistakes stops the boot before any test disk is written.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

boot rejected --disks 1 --size 256M --timeout 300 --plan "$FSM_ROOT/tests/plans/rejected.ini"
expect_status "the run completes despite the errors (exit 0)" 0
expect_record "data=bogus: an error cell with mount(2)'s reason and the options" \
	"$(cell disk/ext4/data=bogus/seq) | .status == \"error\" and (.error | test(\"^unable to mount /dev/vd[a-z] on /mnt/test: Invalid argument \\\\(options data=bogus\\\\)\"))"
expect_record "data=bogus: the error carries the kernel's own line" \
	"$(cell disk/ext4/data=bogus/seq) | .error | test(\"kernel: .*ext4.*data\"; \"i\")"
expect_record "the next cell on the same disk runs: ok, with figures" \
	"$(cell disk/ext4/defaults/seq) | .status == \"ok\" and .result.mbps > 0"
expect_record "mkfs -b 512: an error cell with mke2fs's message" \
	"$(cell disk/badblock/defaults/seq) | .status == \"error\" and (.error | test(\"mkfs.ext4 exited with status [0-9]+: .*invalid block size - 512\"))"
expect_record "mkfs.xfs -d bogus=1: an error cell with mkfs.xfs's message" \
	"$(cell disk/badxfs/defaults/seq) | .status == \"error\" and (.error | test(\"mkfs.xfs exited with status [0-9]+: .*unknown option\"))"
expect_record "error cells still tear down: the disk is wiped after the failure" \
	"[select(.type == \"cell\" and .status == \"error\") | .steps[-1].argv[0] == \"wipe\"] | all"
expect_record "the trailer counts 1 ok and 3 errors" \
	'select(.type == "trailer") | .cells == 4 and .counts.ok == 1 and .counts.error == 3'
expect_console "the progress line shows the reason" '^\[1/4\] disk ext4 data=bogus seq rep 1/1: error: unable to mount'

# A plan with mistakes stops the boot with its FILE:LINE lines, and nothing is written to
# the test disk (it stays all zeros).
boot badplan --disks 1 --size 64M --keep --timeout 300 --plan "$FSM_ROOT/tests/plans/bad-plan.ini"
expect_status "bad plan: the guest stops without a trailer (exit 2)" 2
expect_console "bad plan: each mistake as FILE:LINE: message" \
	'^fsmatrix: /results/fsmatrix/plan\.ini:15: size: expected a size .*\(size = 12q\)'
expect_console "bad plan: the first mistake is the fatal line" \
	'^fsmatrix: fatal: /results/fsmatrix/plan\.ini:5: unknown key "timout" in \[global\]'
expect_record "bad plan: a fatal event naming the plan line" \
	'select(.type == "event" and .event == "fatal") | .error | test("plan\\.ini:5: unknown key")'
zeros() {
	cmp -s "$RUN/disks/fsmtest0.img" <(head -c "$(stat -c %s "$RUN/disks/fsmtest0.img")" /dev/zero) ||
		{ echo "fsmtest0.img is not all zeros"; return 1; }
}
check "bad plan: the test disk was not written" zeros
rm -rf "$RUN/disks"
