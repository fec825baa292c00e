# 56-hang: a planted kernel-level hang under the filesystem, and what the run makes of it.
# tests/plans/hang.ini runs a crypt layer over a raid1 and a plain disk, ext4, two workloads,
# 8 cells; fsmatrix.debug_suspend=2 suspends the crypt device (dmsetup suspend --nolockfs)
# before the workload of cells 2 and 3, which then waits in the kernel for I/O that never
# completes. With fsmatrix.hang=5 the cell's watcher declares each hung 5 s after the last
# completed I/O: its record (status hung) holds the stuck tasks' stacks, md's state and the
# kernel's log, and the watchdog (15 s) reboots the guest, which qemu/run boots again. The
# second hang on the array skips its last cell; the plain disk's cells run ok; a disk not
# handed over, full of random bytes, stays byte-identical.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

RUN=$FSM_TEST_RUNS/56-hang-run
rm -rf "$RUN" && mkdir -p "$RUN/disks"
for i in 0 1; do truncate -s 128M "$RUN/disks/fsmtest$i.img"; done
head -c 128M /dev/urandom >"$RUN/disks/fsmtest2.img"
snapshot "$RUN/disks/fsmtest2.img"
boot run --disks 3 --size 128M --reuse --keep --timeout 600 --plan "$FSM_ROOT/tests/plans/hang.ini" \
	--append "fsmatrix.disks=serial:fsmtest0,serial:fsmtest1 fsmatrix.watchdog=15 fsmatrix.hang=5 fsmatrix.debug_suspend=2"
expect_status "the run completes over the reboots (exit 0)" 0
check "qemu/run booted the guest again after each hung cell's reboot: 3 boots" \
	grep -q 'completed: trailer record seen; .*; 3 boots' "$RUN.out"
check "qemu/run said why it booted the guest again" \
	grep -q 'boot 1 ended in the reboot after a hung cell in the middle of the run: booting the guest again' "$RUN.out"
expect_console "the console said which cell hung, since when and what comes next" \
	'fsmatrix: HUNG: cell 2/8 r1\+luks/ext4/defaults/a rep 2/2: .* for [0-9]+ s \(since [0-9.]+ s after boot; .*then the watchdog reboots the machine in 15 s, and the run goes on'
expect_console "each stuck task's top frames on the console" '^  stuck     .*: .*ext4_'
hung='select(.type == "cell" and .index == 2)'
expect_record "cell 2 is hung, on its first attempt, with the reason naming a stuck task's frames" \
	"$hung | .status == \"hung\" and .attempt == 1 and (.error | test(\"^hung: [0-9]+ task\\\\(s\\\\) in D state and no I/O completed for [0-9]+ s \\\\(bound 5 s\\\\); \"))"
expect_record "a stuck task's stack names a filesystem function (ext4, jbd2)" \
	"$hung | any(.hang.tasks[]; (.top | test(\"ext4_|jbd2_\")) and (.stack | test(\"^\\\\[<0>\\\\] \")))"
expect_record "md's state and the members' requests in flight are kept" \
	"$hung | (.hang.mdstat | test(\"md0 : active raid1\")) and .hang.md.md0.array_state != null and (.hang.inflight | has(\"md0\") and has(\"dm-0\"))"
expect_record "the kernel's log since the cell began holds sysrq w's report of the blocked tasks" \
	"$hung | (.hang.kernel_log | test(\"sysrq: Show Blocked State\")) and (.hang.kernel_log | test(\"EXT4-fs \\\\(dm-0\\\\): mounted\"))"
expect_record "the declaration came 5 s after the last I/O, with the steps run until the hang" \
	"$hung | (.hang.declared_s - .hang.since_s) < 7 and .hang.bound_s == 5 and .hang.reboot_s == 15 and any(.steps[]; .argv[0] == \"dmsetup\" and .argv[1] == \"suspend\")"
# the guest's own clock: the kernel log's time of softdog's reboot against the declaration
declared=$(records_console | jq -r "$hung | .hang.declared_s")
softdog=$(tr -d '\r' <"$RUN/console.log" | grep -m1 'softdog: Initiating system reboot' | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
check "the watchdog rebooted the guest within its re-armed 15 s of the declaration (guest clock: $declared -> $softdog)" \
	awk -v d="$declared" -v s="$softdog" 'BEGIN { exit !(s != "" && d != "" && s - d >= 0 && s - d <= 18) }'
expect_result_record "the hung record reached the results disk (fsynced before the reboot)" \
	"$hung | .status == \"hung\" and (.hang.tasks | length > 0)"
expect_record "cell 3, the array's other workload, hung too" \
	'select(.type == "cell" and .index == 3) | .status == "hung"'
expect_record "after the array's second hang its last cell is skipped with the reason" \
	'select(.type == "cell" and .index == 4) | .status == "skipped" and (.error | test("^the array r1\\+luks hung 2 times in this run \\(r1\\+luks/ext4/defaults/a, r1\\+luks/ext4/defaults/b\\)"))'
check "every cell has one final record: 1 ok, 2-3 hung, 4 skipped, 5-8 ok on the plain disk" test "$(records_console | jq -r -s \
	'[.[] | select(.type == "cell") | "\(.index):\(.status)"] | join(" ")')" = "1:ok 2:hung 3:hung 4:skipped 5:ok 6:ok 7:ok 8:ok"
expect_record "one trailer counts them, hung included" \
	'select(.type == "trailer") | .counts.ok == 5 and .counts.hung == 2 and .counts.skipped == 1 and .counts.interrupted == 0'
check "three headers: the first boot and two resumes" test "$(records_console | jq -s -c '[.[] | select(.type == "header") | .resumed]')" = '[0,1,2]'
expect_record "the disk not handed over was never taken" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest2") | .verdict == "not-named"'
sha256_unchanged "the disk not handed over is byte-identical" "$RUN/disks/fsmtest2.img"

# The report puts the hangs first, with each stuck task's top frames; kcidb exports them.
"$FSM_ROOT/out/fsmatrix" report "$RUN" >"$RUN.report" 2>&1
check "the report's exit status says a cell is not ok (4)" test $? = 4
check "Findings open with the first hang and its stuck tasks' frames" \
	sh -c "sed -n '2p' '$RUN.report' | grep -q '^  hung: r1+luks/ext4/defaults/a rep 2/2: [0-9]* tasks\\? in D state' && sed -n '3,4p' '$RUN.report' | grep -q ' <- .*ext4_\\|ext4_.* <- '"
check "Problems open with the hangs too" \
	sh -c "grep -A1 '^Problems' '$RUN.report' | grep -q '^  hung: r1+luks/ext4/defaults/a rep 2/2'"
check "the status line counts the hung cells" grep -q 'ok 5, error 0, skipped 1, timeout 0, interrupted 0, hung 2;' "$RUN.report"
DOC=$RUN.kcidb.json
check "fsmatrix kcidb writes the run" "$FSM_ROOT/out/fsmatrix" kcidb --origin fsmatrix_boot -o "$DOC" "$RUN"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	check "KernelCI's v5.3 schema accepts it, issues and incidents with it" /usr/bin/python3 \
		"$FSM_ROOT/tests/report/kcidb-validate.py" "$FSM_ROOT/tests/fixtures/kcidb/kcidb-io.schema.v5.3.json" "$DOC"
else
	fail "KernelCI's v5.3 schema accepts it, issues and incidents with it" "Debian's python3-jsonschema is not installed (make deps)"
fi
check "a hang issue with the stuck frames, an incident for each hung cell linking its test and build" \
	jq -e '(.issues | length >= 1) and all(.issues[]; .categories == ["runtime.hang"] and (.comment | test("ext4_"))) and
		(.incidents | length == 2) and ([.tests[].id] as $t | all(.incidents[]; .test_id as $x | $t | index($x) != null)) and
		any(.tests[]; .status == "FAIL" and .path == "fsmatrix.r1_2Bluks.ext4.defaults.b")' "$DOC"
rm -rf "$RUN/disks"
