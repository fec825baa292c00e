# 26-labgrid: labgrid (Debian's python3-labgrid) runs a sharded plan: tests/labgrid/run-shard
# boots shards 1/2 and 2/2 of the default plan at scale 0.05 side by side with labgrid's
# QEMUDriver, each on its own blank disks, and keeps each console; the two logs merge into one
# complete run, every cell ok, no record line rejected, no problem. Two guests at once: run it
# under the heavy lock.
# tests/run: alone (two guests of its own at once, one a core, each under a timeout)
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

/usr/bin/python3 -c 'import labgrid' 2>/dev/null ||
	skip_all "python3-labgrid is not installed (make deps installs it)"
[ -s "$KERNEL" ] || skip_all "$KERNEL is missing (make image)"
W=$FSM_TEST_RUNS/26-labgrid
rm -rf "$W" && mkdir -p "$W"
"$FSM_ROOT/tests/labgrid/run-shard" 1 2 "$W/shard1.log" >"$W/shard1.out" 2>&1 &
p1=$!
"$FSM_ROOT/tests/labgrid/run-shard" 2 2 "$W/shard2.log" >"$W/shard2.out" 2>&1
s2=$?
wait "$p1"
s1=$?
if [ "$s1" = 0 ] && [ "$s2" = 0 ]; then ok "both shards ran to power-off"; else
	fail "both shards ran to power-off" "run-shard exited $s1, $s2: $(tail -n 1 "$W/shard1.out" "$W/shard2.out" | tr '\n' ' ' | cut -c1-160)"; fi
"$FSM_ROOT/out/fsmatrix" report "$W/shard1.log" "$W/shard2.log" >"$W/merged.txt" 2>&1
check "the merged shards are one complete run, every cell ok" \
	grep -Eq '^  status    complete: 54 cells planned; ok 54, error 0, skipped 0, timeout 0, interrupted 0' "$W/merged.txt"
check "no record line rejected" grep -q '^  rejected  0 record lines' "$W/merged.txt"
# a reference drift is the host's (two guests share its 2 cores): shown, not counted here
check "no problem" sh -c '! sed -n "/^Problems/,/^\$/p" "$1" | sed "1d; /^\$/d; /^  none\$/d; /^  conditions changed during the run/d" | grep -q .' _ "$W/merged.txt"
