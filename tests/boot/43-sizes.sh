# 43-sizes: tests/plans/sizes.ini booted with 512 MiB of RAM, one 1 GiB disk and
# fsmatrix.scale=0.1 (so 2x ram writes about 100 MB under TCG):
#  - `size = 2x ram` is resolved from the guest's MemTotal (the header's mem_bytes) and
#    `size = 10% fs` from the free space of the filesystem just made (the cell's df_before),
#    each times the scale, in whole 1 MiB blocks; the cell record keeps the formula, the
#    scale, the basis and the bytes, and the engine wrote exactly those bytes;
#  - the plan event carries the estimate for this machine: its RAM and its disk's size;
#  - check --mem 512m resolves 2x ram as the guest will.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

PLAN=$FSM_ROOT/tests/plans/sizes.ini
FSM=$FSM_ROOT/out/fsmatrix
OUT=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}
mkdir -p "$FSM_TEST_RUNS"

"$FSM" check "$PLAN" --mem 512m --scale 0.1 >"$OUT.check" 2>&1
check "check --mem 512m --scale 0.1 resolves 2x ram to 102m (0.1 x 2 x 512m, whole blocks)" grep -q \
	'^  workload  seqwrite 102m in 1m blocks, random data; size 2x ram, x scale 0.1$' "$OUT.check"

boot run --disks 1 --size 1G --mem 512M --timeout 600 --plan "$PLAN" --append fsmatrix.scale=0.1
expect_status "the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
mem=$(jq -s '[.[] | select(.type == "header")][0].mem_bytes' "$j")
check "the header has the guest's MemTotal (under 512 MiB)" test "${mem:-0}" -gt 0 -a "${mem:-0}" -le 536870912
check "2x ram: formula, scale, MemTotal as the basis, 0.1 x 2 x MemTotal in whole MiB, written" jq -e -s --argjson mem "$mem" '
	[.[] | select(.type == "cell" and .axes.workload == "ram")] | length == 1 and
	(.[0] | .status == "ok" and .size.formula == "2x ram" and .size.scale == 0.1 and
	 .size.basis == $mem and .size.bytes == (($mem * 2 * 0.1 / 1048576) | floor) * 1048576 and
	 .result.bytes == .size.bytes)' "$j"
check "10% fs: the free space after mkfs (df_before's avail) as the basis, 0.1 x 0.1 of it, written" jq -e -s '
	[.[] | select(.type == "cell" and .axes.workload == "fs")] | length == 1 and
	(.[0] | .status == "ok" and .size.formula == "10% fs" and .size.scale == 0.1 and
	 .size.basis == .df_before.avail and .size.basis > 800000000 and
	 .size.bytes == ((.size.basis * 0.1 * 0.1 / 1048576) | floor) * 1048576 and
	 .result.bytes == .size.bytes)' "$j"
check "the plan event's estimate is for this machine: its RAM, its 1 GiB disk, no array" jq -e -s --argjson mem "$mem" '
	[.[] | select(.type == "event" and .event == "plan")][0].estimate |
	.mem == $mem and .disk_bytes == 1073741824 and .arrays == 0 and .filesystems == 2 and
	.total_s > 0 and .workload_s > 0 and .mkfs_s > 0' "$j"
check "the console says the estimate" grep -q 'fsmatrix: estimate for .* of RAM and disks of 1g' "$RUN/console.log"
