#!/bin/bash
# 24-lava: a real LAVA dispatcher (lava-run, Debian's lava-dispatcher) runs the jobs
# `fsmatrix lava` writes: the default plan at scale 0.05 as two shards side by side, then
# the same plan unsharded, each on the stock qemu device type under TCG (the device
# dictionary tests/lava/qemu-tcg.jinja2, rendered with lava-server's own templates). The
# shards' lava-run logs merge into one run whose cells are the unsharded run's, every one ok;
# every cell record is a LAVA test case with its main figure as measurement and unit. The
# wall times of the two go to build/tests/lava-times.json, or $FSM_LAVA_TIMES (make bench:
# shard_speedup, with FSM_LAVA_SCALE for another scale than 0.05).
# Two guests at once is the point: run it alone, under the heavy lock.
# tests/run: alone (two guests of its own at once, whose wall times it measures)
. "$(dirname "$0")/lib.sh"

command -v lava-run >/dev/null 2>&1 ||
	skip_all "lava-run is not installed (make deps installs lava-dispatcher)"
/usr/bin/python3 -c 'import jinja2' 2>/dev/null ||
	skip_all "python3-jinja2 is not installed (make deps installs it)"
W=$FSM_TEST_RUNS/24-lava
rm -rf "$W" && mkdir -p "$W"
"$FSM_ROOT/recipes/lava-device-types" "$FSM_ROOT/build/lava" >"$W/types.log" 2>&1 ||
	skip_all "unable to fetch lava-server's device types with apt-get download: $(tail -n 1 "$W/types.log")"

FSM=$FSM_ROOT/out/fsmatrix
PLAN=$FSM_ROOT/rootfs/plans/default.ini
SCALE=${FSM_LAVA_SCALE:-0.05}
"$FSM_ROOT/tests/lava/render-device" "$FSM_ROOT/build/lava/device-types" \
	"$FSM_ROOT/tests/lava/qemu-tcg.jinja2" >"$W/qemu.yaml" 2>"$W/render.err"
check device-rendered grep -q -- '-accel tcg' "$W/qemu.yaml"
# the jobs deploy the image's kernel, its initramfs with the plan appended, and the blank
# qcow2 disk fsmatrix lava writes beside them, each from where it is (file://)
gen() { # DIR N [PLAN [ARGS...]]
	local dir=$1 n=$2 plan=${3:-$PLAN}
	shift 2; shift $(($# > 0))
	"$FSM" lava "$plan" --shards "$n" --scale "$SCALE" --from "$(dirname "$KERNEL")" \
		-o "$W/$dir" "$@" >/dev/null
}
if gen two 2 && gen one 1; then ok jobs-written; else fail jobs-written "fsmatrix lava failed"; fi
# An edited plan that keeps the name of the image's default (one cell): the job carries it
# and names its sha256. The same job with another sha256 in its kernel arguments (a job made
# for another plan): /init refuses. A job whose disks are not blank (an ext4 signature on
# each, not named by fsmatrix.wipe=): no disk taken, every cell skipped, and the run's test
# case fails.
mkdir -p "$W/edited"
cat >"$W/edited/default.ini" <<'PLAN'
# the image's default plan, edited: one cell, one repetition
[global]
repeat = 1

[array disk]
level = none

[fs ext4]
type = ext4

[workload seq]
type = seqwrite
size = 4m
PLAN
edited_sha=$(sha256sum <"$W/edited/default.ini" | cut -d' ' -f1)
image_sha=$(sha256sum <"$PLAN" | cut -d' ' -f1)
truncate -s 64M "$W/signed.raw" && mkfs.ext4 -q -F "$W/signed.raw" &&
	qemu-img convert -O qcow2 "$W/signed.raw" "$W/signed.qcow2" && rm -f "$W/signed.raw"
if gen edited-job 1 "$W/edited/default.ini" && gen signed-job 1 "$W/edited/default.ini" --disk-url "file://$W/signed.qcow2" &&
	sed "s/fsmatrix.plan_sha256=$edited_sha/fsmatrix.plan_sha256=$image_sha/" \
		"$W/edited-job/default-shard-1-of-1.yaml" >"$W/mismatch.yaml" &&
	grep -q "fsmatrix.plan_sha256=$image_sha" "$W/mismatch.yaml"; then
	ok jobs-written-edited
else
	fail jobs-written-edited "fsmatrix lava failed on the edited plan"
fi
# bare metal over iPXE: not run here (no such machine), but its jobs are checked as well
"$FSM" lava "$PLAN" --shards 2 --device-type x86 --url http://lava.example.org/fsmatrix \
	--select 'serial:WD-*' -o "$W/x86" >/dev/null
# lava-dispatcher's own schema, strict
check jobs-valid /usr/bin/python3 -c '
import sys, yaml
from lava_common.schemas import validate
for f in sys.argv[1:]:
    validate(yaml.safe_load(open(f)), strict=True)
'  "$W"/two/*.yaml "$W"/one/*.yaml "$W"/x86/*.yaml "$W"/edited-job/*.yaml "$W"/signed-job/*.yaml
# the stock x86 device type, rendered with the job's context as lava-server does: the iPXE
# commands of its ramdisk boot carry the job's kernel arguments
"$FSM_ROOT/tests/lava/render-device" "$FSM_ROOT/build/lava/device-types" \
	"$FSM_ROOT/tests/lava/x86-example.jinja2" "$W/x86/default-shard-2-of-2.yaml" >"$W/x86.yaml" 2>>"$W/render.err"
check x86-kernel-args grep -q -- "- set extraargs fsmatrix.disks=serial:WD-\\* fsmatrix.plan=/job/default.ini fsmatrix.plan_sha256=$image_sha fsmatrix.shard=2/2" "$W/x86.yaml"

# lava-run JOB-ID JOB LOG: the dispatcher's log on stderr, its verdict in OUT/result.yaml
lava() { lava-run --device "$W/qemu.yaml" --output-dir "$W/out-$1" --job-id "$1" "$2" >"$W/$1.stdout" 2>"$3"; }
t0=$(date +%s.%N)
lava 2401 "$W/two/default-shard-1-of-2.yaml" "$W/shard1.log" &
p1=$!
lava 2402 "$W/two/default-shard-2-of-2.yaml" "$W/shard2.log" &
p2=$!
wait "$p1"; s1=$?
wait "$p2"; s2=$?
t1=$(date +%s.%N)
lava 2403 "$W/one/default-shard-1-of-1.yaml" "$W/whole.log"
s0=$?
t2=$(date +%s.%N)
# the edited plan, the mismatch and the signed disks, side by side (one cell each, or none)
lava 2404 "$W/edited-job/default-shard-1-of-1.yaml" "$W/edited.log" &
p4=$!
lava 2405 "$W/mismatch.yaml" "$W/mismatch.log" &
p5=$!
lava 2406 "$W/signed-job/default-shard-1-of-1.yaml" "$W/signed.log"
wait "$p4" "$p5"
job_ok() { [ "$1" = 0 ] && grep -q '^result: pass' "$W/out-$2/result.yaml"; }
if job_ok "$s1" 2401 && job_ok "$s2" 2402; then ok lava-run-shards; else
	fail lava-run-shards "a shard's job failed (lava-run $s1, $s2): see $W/shard1.log, shard2.log"; fi
if job_ok "$s0" 2403; then ok lava-run-whole; else
	fail lava-run-whole "the unsharded job failed (lava-run $s0): see $W/whole.log"; fi

# expect_eq CHECK GOT WANT WHAT: GOT is WANT, else the failure says WHAT was GOT.
expect_eq() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "$4: $2, want $3"; fi; }

# The merged shards against the unsharded run: the same cells, each with its 3 repetitions.
cells() { "$FSM" report --format json "$@" | jq -c '[.runs[0].cells[] | {cell, status, seen}] | sort_by(.cell)'; }
merged=$(cells "$W/shard1.log" "$W/shard2.log" 2>"$W/merge.err")
whole=$(cells "$W/whole.log" 2>>"$W/merge.err")
expect_eq merged-cells "$(jq length <<<"$merged")" 18 "cells in the merged shards"
if [ -n "$merged" ] && [ "$merged" = "$whole" ]; then
	ok merged-equals-unsharded
else
	fail merged-equals-unsharded "the merged cells differ from the unsharded run's: $(diff <(jq -c '.[]' <<<"$merged") <(jq -c '.[]' <<<"$whole") | head -n 2 | tr '\n' ' ')"
fi
expect_eq merged-all-ok "$(jq -c '[.[] | select(.status != "ok" or .seen != 3) | .cell]' <<<"$merged")" "[]" \
	"cells not ok in all 3 repetitions"
"$FSM" report "$W/shard1.log" "$W/shard2.log" >"$W/merged.txt" 2>&1
expect_eq merged-status "$?" 0 "fsmatrix report's status on the merged shards"
check merged-complete grep -Eq '^  status    complete: 54 cells planned; ok 54, ' "$W/merged.txt"
# Problems of the run's making; a reference drift is the host's (two guests share its 2 cores)
# and is shown, not counted here
problems=$(sed -n '/^Problems/,/^$/p' "$W/merged.txt" | sed '1d; /^$/d; /^  conditions changed during the run/d; /^  none$/d')
expect_eq merged-no-problems "${problems:-  none}" "  none" "the problems"
# one shard alone is the run with a shard missing
"$FSM" report "$W/shard1.log" >"$W/alone.txt" 2>&1
expect_eq shard-alone-status "$?" 3 "fsmatrix report's status on one shard of two (3: incomplete)"
check shard-missing-is-a-problem grep -q '^  shard 2/2 missing' "$W/alone.txt"
# the other shard's cells, named as check --shards numbers them
check shard-missing-cells grep -Eq '^  cells [0-9, -]+ of 18, repetitions 1-3 of 3: never ran' "$W/alone.txt"

# Every cell repetition a LAVA test case with its figure: 54 cases in each run, under 54
# names, each passing with a measurement and a unit; and each run one case "run", passing.
cases() { cat "$@" | grep '"lvl": "results"' | grep '"definition": "fsmatrix"'; }
measured() { cases "$@" | grep '"measurement": "[0-9]' | grep -E '"units": "(MB/s|s)"' | grep -c '"result": "pass"'; }
run_case() { cases "$1" | grep '"case": "run"' | grep -o '"result": "[a-z]*"' | tr '\n' ' ' | sed 's/ $//'; }
expect_eq test-cases-shards "$(cases "$W/shard1.log" "$W/shard2.log" | grep -vc '"case": "run"')" 54 "test cases"
expect_eq test-case-names "$(cases "$W/shard1.log" "$W/shard2.log" | grep -o '"case": "[^"]*_rep[0-9]"' | sort -u | wc -l)" 54 \
	"distinct test case names (cell and repetition)"
expect_eq run-case-shards "$(run_case "$W/shard1.log") $(run_case "$W/shard2.log")" '"result": "pass" "result": "pass"' \
	"the shards' run cases"
expect_eq test-cases-measured "$(measured "$W/shard1.log" "$W/shard2.log")" 54 \
	"passing test cases with a measurement and a unit"
expect_eq test-cases-measured-whole "$(measured "$W/whole.log")" 54 \
	"passing test cases with a measurement and a unit, unsharded"

# The edited plan ran as carried, under its own sha256, from /job/default.ini: one cell.
hdr() { "$FSM" report --format json "$1" 2>/dev/null | jq -r ".runs[0].header.plan | \"\\(.path) \\(.sha256)\""; }
expect_eq carried-plan-runs "$(hdr "$W/edited.log")" "/job/default.ini $edited_sha" "the edited job's plan"
expect_eq carried-plan-cells "$(cases "$W/edited.log" | grep -c '"case": "disk_ext4_defaults_seq_rep1", .*"result": "pass"')" 1 \
	"passing cases of the edited plan's one cell"
expect_eq carried-plan-run-case "$(run_case "$W/edited.log")" '"result": "pass"' "its run case"
# A sha256 other than the carried plan's: /init stops before any disk is written, and the
# run's case fails.
check mismatch-refused grep -q "fsmatrix: fatal: the plan /job/default.ini has sha256 $edited_sha, not the $image_sha that fsmatrix.plan_sha256= names" "$W/mismatch.log"
expect_eq mismatch-no-cell "$(grep -cF -e cell-start -e 'type\\\":\\\"cell\\\"' "$W/mismatch.log")" 0 \
	"lines of cells started or recorded after the refusal"
expect_eq mismatch-run-case "$(run_case "$W/mismatch.log")" '"result": "fail"' "the refused job's run case"
# Disks that carry a signature are not taken: the cell is skipped and the run case fails.
expect_eq no-disk-run-case "$(run_case "$W/signed.log")" '"result": "fail"' "the run case with no blank disk"
expect_eq no-disk-trailer "$("$FSM" report --format json "$W/signed.log" 2>/dev/null | jq -r '.runs[0].trailer.status')" no-disk \
	"the trailer's status with no blank disk"

# The times, for make bench (shard_speedup; the goal is <= 0.6 on 2 cores, judged there:
# a wall time beside other guests is information here, not a check).
times=${FSM_LAVA_TIMES:-$FSM_ROOT/build/tests/lava-times.json}
jq -n --argjson sharded "$(jq -n "$t1 - $t0")" --argjson whole "$(jq -n "$t2 - $t1")" \
	--arg load "$(cut -d' ' -f1-3 /proc/loadavg)" --arg when "$(date -u +%FT%TZ)" \
	--argjson scale "$SCALE" --argjson cpus "$(nproc)" \
	'{sharded_s: $sharded, unsharded_s: $whole, ratio: ($sharded / $whole), shards: 2,
	  plan: "rootfs/plans/default.ini", scale: $scale, host_cpus: $cpus, host_loadavg: $load,
	  when: $when}' >"$times"
info "times: 2 shards side by side $(jq -r '.sharded_s * 10 | round / 10' "$times") s, unsharded $(jq -r '.unsharded_s * 10 | round / 10' "$times") s (ratio $(jq -r '.ratio * 100 | round / 100' "$times"))"
