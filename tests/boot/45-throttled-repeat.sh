# 45-throttled-repeat: tests/plans/repeat-auto-throttle.ini (two fio writers capped by their
# own rate, repeat = auto, repeat_max = 4, detect = 15%) with the disk throttled through QMP
# (block_set_io_throttle, 1 MB/s) during the second repetition of "hit" only:
#  - "capped" stops early, as stable, after 3 repetitions, its summary giving the change a
#    comparison could detect (mde_pct) within the plan's 15%;
#  - "hit", one repeat far below the others, is unstable and runs to repeat_max: its summary
#    says why (an outlier: repeat 2), the text report marks it "~" and names the reason under
#    Verdicts, the HTML report draws its bar hatched with the reason in the tooltip;
#  - compare (the run against itself) tests no difference on "hit" and says why, and tests
#    "capped";
#  - check prints the detect bound in its heading.
# tests/run: foreground (stable within 15%, one outlier only: a neighbour at the same priority can add one)
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

PLAN=$FSM_ROOT/tests/plans/repeat-auto-throttle.ini
FSM=$FSM_ROOT/out/fsmatrix
OUT=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}
mkdir -p "$FSM_TEST_RUNS"
"$FSM" check "$PLAN" >"$OUT.check" 2>&1
check "check prints the detect bound" grep -q \
	'^plan repeat-auto-throttle .*: at most 8 cells (2 per repetition x repeat = auto: each cell until its figure is stable and a change of 15% would be detected, 3 to 4 times)$' "$OUT.check"

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-run
rm -rf "$RUN" "$RUN.qmp"
(
	on=0
	for _ in $(seq 1500); do
		if [ "$on" = 0 ] && grep -q ' hit rep 2/4: running' "$RUN/console.log" 2>/dev/null; then
			qmp_throttle 1000000 && on=1
		elif [ "$on" = 1 ] && grep -q ' hit rep 2/4: write' "$RUN/console.log" 2>/dev/null; then
			qmp_throttle 0
			break
		fi
		sleep 0.2
	done
) &
throttler=$!
boot run --disks 1 --size 256M --timeout 600 --plan "$PLAN"
wait "$throttler"
expect_status "the run completes (exit 0)" 0
check "the disk was throttled and released through QMP" test "$(grep -c '"return"' "$RUN.qmp" 2>/dev/null)" = 2
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
summary() { jq -r -s "[.[] | select(.type == \"summary\" and .cell == \"disk/ext4/defaults/$1\")][0] | $2" "$j"; }
check "capped stopped as stable after 3 repetitions" test "$(summary capped '"\(.auto) \(.n) \(.verdict.stable)"')" = "stable 3 true"
check "capped's summary gives the change a comparison could detect, within 15%" test \
	"$(summary capped '.mde_pct != null and .mde_pct <= 15')" = true
check "hit ran to repeat_max, unstable" test "$(summary hit '"\(.auto) \(.n) \(.verdict.stable)"')" = "repeat_max 4 false"
check "hit's summary names the throttled repeat as an outlier" test \
	"$(summary hit '.verdict.reason | test("^an outlier: repeat 2 at 0\\.[0-9]+x the median$")')" = true
"$FSM" report "$j" >"$OUT.report" 2>&1
check "the text report marks hit's figure not stable" sh -c "sed -n '/^hit: write MB\/s/,/^\$/p' '$OUT.report' |
	grep -Eq '^  disk/ext4/defaults +[0-9.]+ ±[0-9.]+ ~\$'"
check "the text report's Verdicts name hit and the outlier" grep -Eq 'disk/ext4/defaults/hit: .*an outlier: repeat 2' "$OUT.report"
"$FSM" html "$j" -o "$OUT.html" >/dev/null 2>&1
check "the HTML report draws hit's bar hatched, the reason in its tooltip" grep -Eq \
	'fill="url\(#hatch[0-9-]+\)"><title>disk/ext4/defaults/hit: .*not stable: an outlier: repeat 2' "$OUT.html"
"$FSM" compare "$j" "$j" >"$OUT.compare" 2>&1
check "compare tests no difference on hit, and says why" grep -Eq \
	'hit .*not tested: A: an outlier: repeat 2 at 0\.[0-9]+x the median; B: an outlier' "$OUT.compare"
check "compare tests capped" grep -Eq 'capped .*no significant difference' "$OUT.compare"
