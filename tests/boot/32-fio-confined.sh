# 32-fio-confined: fio jobs that try to reach outside their cell (tests/plans/fio-hostile.ini
# and tests/fixtures/fio-hostile/*.fio) in a real boot, with a second disk present that was
# not handed over (fsmtest1, /dev/vdc, full of random bytes). The exec engine, a pre-run
# command and a control character before filename= are turned away before fio runs, each
# naming its job file's line; `..` out of the cell onto both disks, a section name as a path
# onto the results partition, and iolog and bandwidth-log outputs out of the cell run and
# meet the confinement. The disk that was not handed over stays byte-identical, and the
# results partition holds none of their files; a job that stays in its cell runs ok.
# `fsmatrix check` names the same lines, and turns away abbreviated options.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
command -v mdir >/dev/null || skip_all "mdir is missing on the host (mtools)"
FSM=$FSM_ROOT/out/fsmatrix
JOBS=$FSM_ROOT/tests/fixtures/fio-hostile
PLAN=$FSM_ROOT/tests/plans/fio-hostile.ini

# check, on the host: the plan beside its job files, as a stick holds them
dir=$FSM_TEST_RUNS/32-fio-confined-check
rm -rf "$dir" && mkdir -p "$dir" && cp "$PLAN" "$JOBS"/*.fio "$dir"/
out=$("$FSM" check "$dir/fio-hostile.ini" 2>&1 >/dev/null)
check "check: the exec engine, named by its job file's line" \
	grep -qF "$dir/exec.fio:3: ioengine=exec runs or loads a program" <<<"$out"
check "check: the pre-run command, named by its line" \
	grep -qF "$dir/prerun.fio:5: exec_prerun runs a program" <<<"$out"
check "check: the control character before filename=, named by its line" \
	grep -qF "$dir/control.fio:6: a control character (0x0b)" <<<"$out"
printf '[global]\nname = abbrev\n[array disk]\nlevel = none\n[fs ext4]\ntype = ext4\n[workload w]\ntype = fio\nrw = write\nsize = 1m\noptions = --exec_pre=sh --filen=x\n' >"$dir/abbrev.ini"
check "check: an abbreviated option (--exec_pre) is read as fio's getopt reads it" \
	bash -c '! "$1" check "$2" >/dev/null 2>"$2.err" && grep -qF "$2:11: [workload w]: exec_prerun runs a program" "$2.err"' _ "$FSM" "$dir/abbrev.ini"

# the boot: fsmtest0 handed over, fsmtest1 not
RUN=$FSM_TEST_RUNS/32-fio-confined-boot
rm -rf "$RUN" && mkdir -p "$RUN/disks"
truncate -s 256M "$RUN/disks/fsmtest0.img"
head -c 256M /dev/urandom >"$RUN/disks/fsmtest1.img"
snapshot "$RUN/disks/fsmtest1.img"
files=()
for f in "$JOBS"/*.fio; do files+=(--file "$f"); done
boot boot --disks 2 --size 256M --reuse --keep --no-select --timeout 900 --plan "$PLAN" "${files[@]}" \
	--append "fsmatrix.disks=serial:fsmtest0"
expect_status "the run completes (exit 0)" 0
expect_record "fsmtest1 was not handed over" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest1") | .verdict == "not-named"'
cell_of() { cell "disk/ext4/defaults/$1"; }   # WORKLOAD: its cell on the disk's ext4
expect_record "exec engine: an error cell naming exec.fio:3, fio never ran" \
	"$(cell_of exec) | .status == \"error\" and (.error | test(\"exec.fio:3: ioengine=exec runs\"))"
expect_record "pre-run command: an error cell naming prerun.fio:5" \
	"$(cell_of prerun) | .status == \"error\" and (.error | test(\"prerun.fio:5: exec_prerun runs a program\"))"
expect_record "control character: an error cell naming control.fio:6" \
	"$(cell_of control) | .status == \"error\" and (.error | test(\"control.fio:6: a control character\"))"
for w in dotdot section logs inlinedotdot; do
	expect_record "$w: fio ran and failed where it tried to leave the cell" \
		"$(cell_of $w) | .status == \"error\" and (.error | test(\"\\\\(fio\\\\): fio exited 1: .*(Read-only file system|No such file or directory)\"))"
done
expect_record "a job that stays in its cell: ok, confined, 2 MiB written" \
	"$(cell_of inside) | .status == \"ok\" and .result.command == \"fio --output-format=json /job\" and .result.jobs[0].write.io_bytes == 2097152"
sha256_unchanged "the disk that was not handed over is byte-identical" "$RUN/disks/fsmtest1.img"
no_job_files() { # the FAT partition's files, none of them a hostile job's
	local start l
	start=$(sfdisk -d "$RUN/results.img" | sed -n 's/^[^:]*1 : start= *\([0-9]*\).*/\1/p')
	l=$(mdir -/ -b -i "$RUN/results.img@@$((start * 512))" ::) ||
		{ echo "unable to list the results partition"; return 1; }
	! grep -iE "escape|iolog|bwlog|inline|\.0\.0|inside\.dat|_bw" <<<"$l"
}
check "the results partition holds none of the jobs' files" no_job_files
