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
qemu-img create -q -f qcow2 "$W/fsmtest.qcow2" 1G
base=file://$(dirname "$KERNEL")
gen() { # DIR N
	"$FSM" lava "$PLAN" --shards "$2" --scale "$SCALE" --url "$base" \
		--disk-url "file://$W/fsmtest.qcow2" -o "$W/$1" >/dev/null
}
if gen two 2 && gen one 1; then ok jobs-written; else fail jobs-written "fsmatrix lava failed"; fi
# bare metal over iPXE: not run here (no such machine), but its jobs are checked as well
"$FSM" lava "$PLAN" --shards 2 --device-type x86 --url http://lava.example.org/fsmatrix \
	--select 'serial:WD-*' -o "$W/x86" >/dev/null
# lava-dispatcher's own schema, strict
check jobs-valid /usr/bin/python3 -c '
import sys, yaml
from lava_common.schemas import validate
for f in sys.argv[1:]:
    validate(yaml.safe_load(open(f)), strict=True)
' "$W"/two/*.yaml "$W"/one/*.yaml "$W"/x86/*.yaml
# the stock x86 device type, rendered with the job's context as lava-server does: the iPXE
# commands of its ramdisk boot carry the job's kernel arguments
"$FSM_ROOT/tests/lava/render-device" "$FSM_ROOT/build/lava/device-types" \
	"$FSM_ROOT/tests/lava/x86-example.jinja2" "$W/x86/default-shard-2-of-2.yaml" >"$W/x86.yaml" 2>>"$W/render.err"
check x86-kernel-args grep -q -- '- set extraargs fsmatrix.disks=serial:WD-\* fsmatrix.plan=default fsmatrix.shard=2/2' "$W/x86.yaml"

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
check merged-complete grep -Eq '^  status    complete: 54 cells planned; ok 54, ' "$W/merged.txt"
expect_eq merged-no-problems "$(sed -n '/^Problems/{n;p}' "$W/merged.txt")" "  none" "the first problem"
# one shard alone is the run with a shard missing
"$FSM" report "$W/shard1.log" >"$W/alone.txt" 2>&1
check shard-missing-is-a-problem grep -q '^  shard 2/2 missing' "$W/alone.txt"

# Every cell record a LAVA test case with its figure: 54 cases in each run, each passing with
# a measurement and a unit.
cases() { cat "$@" | grep '"lvl": "results"' | grep '"definition": "fsmatrix"'; }
measured() { cases "$@" | grep '"measurement": "[0-9]' | grep -E '"units": "(MB/s|s)"' | grep -c '"result": "pass"'; }
expect_eq test-cases-shards "$(cases "$W/shard1.log" "$W/shard2.log" | wc -l)" 54 "test cases"
expect_eq test-cases-measured "$(measured "$W/shard1.log" "$W/shard2.log")" 54 \
	"passing test cases with a measurement and a unit"
expect_eq test-cases-measured-whole "$(measured "$W/whole.log")" 54 \
	"passing test cases with a measurement and a unit, unsharded"

# The times, for make bench (shard_speedup; the goal is <= 0.6 on 2 cores).
times=${FSM_LAVA_TIMES:-$FSM_ROOT/build/tests/lava-times.json}
jq -n --argjson sharded "$(jq -n "$t1 - $t0")" --argjson whole "$(jq -n "$t2 - $t1")" \
	--arg load "$(cut -d' ' -f1-3 /proc/loadavg)" --arg when "$(date -u +%FT%TZ)" \
	--argjson scale "$SCALE" --argjson cpus "$(nproc)" \
	'{sharded_s: $sharded, unsharded_s: $whole, ratio: ($sharded / $whole), shards: 2,
	  plan: "rootfs/plans/default.ini", scale: $scale, host_cpus: $cpus, host_loadavg: $load,
	  when: $when}' >"$times"
ok "times: 2 shards side by side $(jq -r '.sharded_s * 10 | round / 10' "$times") s, unsharded $(jq -r '.unsharded_s * 10 | round / 10' "$times") s (ratio $(jq -r '.ratio * 100 | round / 100' "$times"))"
