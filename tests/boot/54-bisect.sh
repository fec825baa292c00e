# 54-bisect: a bisection PID 1 drives itself (tests/plans/bisect.ini: [bisect] over the sets
# b1, b2, b3, b4, good b1, bad b4, one small streaming cell, repeat = auto). The four sets are
# the same 6.1 kernel under four names; the host makes b3 and b4 slower on purpose: it
# watches the console for each kexec switch and sets the test disk's throttle through QMP
# (block_set_io_throttle), 8 MB/s under b1 and b2, 4 MB/s under b3 and b4. The search
# checks both ends, finds b3 the first bad set and b2 the last good one in at most
# ceil(log2 4) + 2 = 4 probes, each probe a "bisect-probe" event with its figures and rule,
# the result a "bisect" record. A power cut right after the bad end's probe is resumed: the
# boot after it comes up under the firmware's kernel, replays the search from the journal and
# switches to b2; no finished probe runs again (every position recorded once). An A/A search
# (no set slower), booted as b1, ends "no significant change between the ends" after the two
# ends, with one switch. A disk not handed over is byte-identical afterwards.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

for f in vmlinuz initramfs.img; do
	[ -s "$FSM_ROOT/out/kernels/6.1/$f" ] || skip_all "out/kernels/6.1/$f is missing (make kernels)"
done
PLAN=$FSM_ROOT/tests/plans/bisect.ini
SETS="b1 b2 b3 b4"
KERNEL=$FSM_ROOT/out/kernels/6.1/vmlinuz INITRD=$FSM_ROOT/out/kernels/6.1/initramfs.img

# check: the plan as PID 1 will run it, and bad input as one FILE:LINE line each
OUT=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}
mkdir -p "$FSM_TEST_RUNS"
bad_plan() { # SED-EXPRESSION EXPECTED-REGEX
	sed "$1" "$PLAN" >"$OUT.bad.ini"
	"$FSM_ROOT/out/fsmatrix" check "$OUT.bad.ini" --disks 1 >"$OUT.bad.out" 2>&1
	[ $? = 1 ] && [ "$(wc -l <"$OUT.bad.out")" = 1 ] && grep -Eq "^$OUT.bad.ini:[0-9]+: $2" "$OUT.bad.out" ||
		{ cat "$OUT.bad.out"; return 1; }
}
check "check: good and bad the same set" bad_plan 's/^bad = b4/bad = b1/' '\[bisect\]: good and bad are the same set \(b1\)'
check "check: good after bad" bad_plan 's/^good = b1/good = b4/; s/^bad = b4/bad = b2/' '\[bisect\]: good = b4 comes after bad = b2'
check "check: a set the list lacks" bad_plan 's/^bad = b4/bad = b9/' '\[bisect\]: bad = b9 is not one of the kernels'
check "check: a metric the cell does not have" bad_plan 's/^metric = mbps/metric = iops/' '\[bisect\]: metric = iops: the cell disk/ext4/defaults/seq \(seqwrite\) has no such metric'
check "check: a cell the plan does not have" bad_plan 's|^cell = .*|cell = disk/xfs/defaults/seq|' '\[bisect\]: cell = disk/xfs/defaults/seq is not a cell of this plan'
# a kernels/ folder beside the plan lacking a set: a warning, as for kernels =
rm -rf "$OUT.dir"
for k in b1 b2 b3; do mkdir -p "$OUT.dir/kernels/$k" && touch "$OUT.dir/kernels/$k/vmlinuz" "$OUT.dir/kernels/$k/initramfs.img"; done
cp "$PLAN" "$OUT.dir/plan.ini"
"$FSM_ROOT/out/fsmatrix" check "$OUT.dir/plan.ini" --disks 1 >"$OUT.dir.out" 2>&1
check "check: warns of the set missing from the kernels/ folder beside the plan, at its line" \
	test "$(grep -c ': warning: kernels = ' "$OUT.dir.out"):$(grep -c "^$OUT.dir/plan.ini:14: warning: kernels = b4: unable to read .*kernels/b4/vmlinuz" "$OUT.dir.out")" = 1:1

# the results disk as qemu/run makes it, with the four sets on it
sets_disk() { # RUN
	local img=$1/results.img k
	truncate -s 160M "$img" &&
		echo "start=2048, type=e" | sfdisk -q --label dos "$img" >/dev/null &&
		mkfs.vfat -F 16 -n FSMRESULTS --offset 2048 "$img" $(((160 << 10) - 1024)) >/dev/null &&
		mmd -i "$img@@1048576" ::fsmatrix ::fsmatrix/kernels || return 1
	for k in $SETS; do
		mmd -i "$img@@1048576" "::fsmatrix/kernels/$k" &&
			mcopy -i "$img@@1048576" "$KERNEL" "$INITRD" "::fsmatrix/kernels/$k/" || return 1
	done
}
# throttler RUN: b3 and b4 slower, from each switch to them on (the throttle stays with qemu
# across kexec); ends with the boot
throttler() {
	local last= k
	while [ ! -e "$1.done" ]; do
		k=$(grep -o 'switching to kernel b[0-9]' "$1/console.log" 2>/dev/null | tail -n 1)
		if [ -n "$k" ] && [ "$k" != "$last" ]; then
			case $k in *b3 | *b4) qmp_throttle 4000000 ;; *) qmp_throttle 8000000 ;; esac
			last=$k
		fi
		sleep 0.2
	done
}
flags=(--reuse --keep --no-select --disks 2 --size 256M --disk-mbps 8 --results-size 160M
	--plan "$PLAN" --append "fsmatrix.disks=serial:fsmtest0")

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-run
rm -rf "$RUN" "$RUN.qmp" "$RUN.done" && mkdir -p "$RUN/disks"
truncate -s 256M "$RUN/disks/fsmtest0.img"
head -c 64M /dev/urandom >"$RUN/disks/fsmtest1.img"
truncate -s 256M "$RUN/disks/fsmtest1.img"
snapshot "$RUN/disks/fsmtest1.img"
check "a results disk with the sets b1 to b4" sets_disk "$RUN"
throttler "$RUN" &
watcher=$!
KILL_AFTER=0 boot_killed run 'fsmatrix: bisect: probe 2, b4 (bad-end)' --timeout 600 "${flags[@]}"
touch "$RUN.done"; wait "$watcher"; rm -f "$RUN.done"
check "a power cut right after the bad end's probe" test "$KILLED" = yes
throttler "$RUN" &
watcher=$!
boot run --timeout 900 "${flags[@]}"
touch "$RUN.done"; wait "$watcher"
expect_status "the resumed boot completes the search (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
res() { jq -r -s "[.[] | select(.type == \"bisect\")] | if length == 1 then .[0] | $1 else \"\(length) bisect records\" end" "$j"; }
check "one bisect record: found, first bad b3, last good b2" test "$(res '"\(.status) \(.first_bad) \(.last_good)"')" = "found b3 b2"
check "at most ceil(log2 4) + 2 = 4 probes" test "$(res '.probes <= 4 and (.steps | length) == .probes')" = true
check "the probes: both ends first, then b2 good and b3 bad, each with its figures and rule" test \
	"$(res '[.steps[] | "\(.set):\(.class):\(.n >= 3):\(.rule | length > 20)"] | join(",")')" \
	= "b1:good:true:true,b4:bad:true:true,b2:good:true:true,b3:bad:true:true"
check "each probe's event once, in the search's order" test "$(jq -r -s \
	'[.[] | select(.type == "event" and .event == "bisect-probe") | .set] | join(",")' "$j")" = "b1,b4,b2,b3"
check "no finished probe ran again: each position recorded once, none interrupted" test "$(jq -r -s '
	[.[] | select(.type == "cell")] | [(map(.index) | length == (unique | length)), all(.status == "ok")] | join(",")' "$j")" = "true,true"
check "the figures in the record are the cell records' (b3 and b4 at about half of b1 and b2)" test "$(jq -r -s '
	(map(select(.type == "cell")) | group_by(.axes.kernel) | map({key: .[0].axes.kernel, value: (map(.result.mbps) | add / length)}) | from_entries) as $m
	| ($m.b3 / $m.b1 < 0.6 and $m.b4 / $m.b2 < 0.6 and $m.b2 / $m.b1 > 0.9)' "$j")" = true
check "every repetition ran under its own set (its boot's header names it)" test "$(jq -r -s '
	reduce .[] as $r ({h: null, ok: true}; if $r.type == "header" then .h = $r.kernel.set
		elif $r.type == "cell" then .ok = (.ok and .h == $r.axes.kernel) else . end) | .ok' "$j")" = true
# every boot after the first resumes the run; the one after the cut under no set's name
# (the cut may land just after the switch to b2 was written, or before)
switches=$(jq -r -s '[.[] | select(.type == "event" and (.event == "resume" or .event == "kernel-switch")) |
	if .event == "resume" then "resume@\(.kernel // "-")" else "\(.from // "-")>\(.to)" end] | join(",")' "$j")
check "the boot after the cut resumed the run and switched to b2, then b3" \
	grep -Eqx -- '->b1,resume@b1,b1>b4,resume@b4,(b4>b2,)?resume@-,->b2,resume@b2,b2>b3,resume@b3' <<<"$switches"
expect_console "the console replays the decisions" '^fsmatrix: bisect: probe 3, b2 \(probe\): good: mean '
expect_console "the console says the result" '^fsmatrix: bisect: the first bad set is b3, the last good set b2 \(4 probes'
"$FSM_ROOT/out/fsmatrix" report "$j" >"$OUT.report" 2>&1
check "the report says the result and each probe" grep -Eq '^bisect: found: first bad b3, last good b2' "$OUT.report"
sha256_unchanged "the disk not handed over is byte-identical" "$RUN/disks/fsmtest1.img"
rm -rf "$RUN/disks"

# A/A: the same sets, no set slower: the ends do not differ, the search stops there
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-aa
rm -rf "$RUN" && mkdir -p "$RUN"
check "aa: a results disk with the sets" sets_disk "$RUN"
# (booted as b1, which it is: the good end's probe needs no switch, one kexec boot less)
boot aa --reuse --disks 1 --size 256M --disk-mbps 8 --results-size 160M --timeout 600 --plan "$PLAN" \
	--append fsmatrix.kernel=b1
expect_status "aa: the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "aa: no significant change between the ends, after the two ends" test \
	"$(res '"\(.status) \(.probes) \(.first_bad)"')" = "no-change 2 null"
expect_console "aa: the console says so" '^fsmatrix: bisect: no significant change between the ends: good '
check "aa: booted as b1, one switch only (to b4)" test "$(jq -r -s \
	'[.[] | select(.type == "event" and .event == "kernel-switch") | "\(.from // "-")>\(.to)"] | join(",")' "$j")" = "b1>b4"
