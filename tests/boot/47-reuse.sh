# 47-reuse: tests/plans/reuse.ini (a raid5 of 3 with resync = wait, 2 filesystems x 2 mount
# lines, 2 repetitions: 8 cells in 2 groups of one array configuration each) booted with each
# reuse setting, and once cut by a power loss in the middle of a group:
#  - reuse = array (the default): one mdadm --create and one resync per repetition, the other
#    cells record "reused": "array" and the cell that made it; every cell makes its own
#    filesystem; 8 cells ok; a fourth disk, not handed over, byte-identical after the boot;
#  - reuse = none: an mdadm --create in every cell;
#  - reuse = fs: one mkfs per filesystem and repetition; the other cells empty the one
#    before's files ("clean") instead;
#  - every array recorded with the bitmap it got (none: the plan's default) and whether its
#    blocks were discarded;
#  - a power cut in the third cell of a group: the resumed boot makes the array again in
#    that cell, the fourth takes it over, and no cell is run twice or lost.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

FSM=$FSM_ROOT/out/fsmatrix
PLANS=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-plans
mkdir -p "$PLANS"
PLAN=$FSM_ROOT/tests/plans/reuse.ini
for r in none fs; do
	sed "s/^warmup = 0$/warmup = 0\nreuse = $r/; s/^repeat = 2$/repeat = 1/" "$PLAN" >"$PLANS/reuse-$r.ini"
done
# For the power cut, one repetition of cells of 8 s (an fio writer capped at 2 MB/s): the
# cut, 5 s into the third cell, falls inside it.
sed '/^\[workload seq\]/,$d; s/^repeat = 2$/repeat = 1/' "$PLAN" >"$PLANS/reuse-cut.ini"
printf '[workload seq]\ntype = fio\nrw = write\nbs = 64k\nsize = 16m\noptions = --rate=2m\n' >>"$PLANS/reuse-cut.ini"
# steps of cell records, as "index:argv0 argv1" lines
steps() { jq -r 'select(.type == "cell") | .index as $i | .steps[] | "\($i):\(.argv[0]) \(.argv[1] // "")"' "$1"; }

RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-array
rm -rf "$RUN" && mkdir -p "$RUN/disks"
for i in 0 1 2; do truncate -s 256M "$RUN/disks/fsmtest$i.img"; done
head -c 256M /dev/urandom >"$RUN/disks/fsmtest3.img"
snapshot "$RUN/disks/fsmtest3.img"
boot array --disks 4 --size 256M --reuse --keep --no-select --timeout 900 --plan "$PLAN" \
	--append "fsmatrix.disks=serial:fsmtest0,serial:fsmtest1,serial:fsmtest2"
expect_status "reuse = array: the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "reuse = array: 8 cells ok" test "$(jq -s '[.[] | select(.type == "cell" and .status == "ok")] | length' "$j")" = 8
check "reuse = array: one mdadm --create per repetition, in its first cell" test \
	"$(steps "$j" | grep -c ':mdadm --create$'),$(steps "$j" | grep ':mdadm --create$' | cut -d: -f1 | tr '\n' ' ')" = "2,1 5 "
check "reuse = array: one resync per repetition, in the cell that made the array" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.index):\(.resync_s != null)"] | join(",")' "$j")" \
	= "1:true,2:false,3:false,4:false,5:true,6:false,7:false,8:false"
check "reuse = array: the other cells say they reused the array and which cell made it" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.reused)\(.reused_from // "")"] | join(",")' "$j")" \
	= "none,array1,array1,array1,none,array5,array5,array5"
check "reuse = array: every cell makes its own filesystem" test "$(steps "$j" | grep -c ':mkfs\.')" = 8
check "reuse = array: each array's bitmap is recorded (none: the plan's default)" jq -e -s \
	'[.[] | select(.type == "cell")] | length == 8 and all(.[]; .bitmap == "none" and (.discarded | type) == "boolean")' "$j"
check "reuse = array: the members are wiped once per group, at its start and its end" test \
	"$(steps "$j" | grep -c ':wipe ')" = 12
sha256_unchanged "reuse = array: the disk not handed over is byte-identical" "$RUN/disks/fsmtest3.img"
rm -rf "$RUN/disks"

boot none --disks 3 --size 256M --timeout 600 --plan "$PLANS/reuse-none.ini"
expect_status "reuse = none: the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "reuse = none: every cell creates its array" test "$(steps "$j" | grep -c ':mdadm --create$')" = 4
check "reuse = none: 4 cells ok, none reused" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.status) \(.reused)"] | unique | join(",")' "$j")" = "ok none"

boot fs --disks 3 --size 256M --timeout 600 --plan "$PLANS/reuse-fs.ini"
expect_status "reuse = fs: the run completes (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
check "reuse = fs: one mdadm --create, and one mkfs per filesystem" test \
	"$(steps "$j" | grep -c ':mdadm --create$') $(steps "$j" | grep ':mkfs\.' | cut -d: -f1 | tr '\n' ' ')" = "1 1 3 "
check "reuse = fs: the cells on a filesystem made before empty it instead" test \
	"$(steps "$j" | grep ':clean ' | cut -d: -f1 | tr '\n' ' ')" = "2 4 "
check "reuse = fs: the record says which" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.status) \(.reused)\(.reused_from // "")"] | join(",")' "$j")" \
	= "ok none,ok fs1,ok array1,ok fs3"

# A power cut while the third cell of the group runs: the array it had taken over is gone
# with the machine; the resumed boot makes it again in that cell.
RUN=$FSM_TEST_RUNS/${FSM_TEST_NAME##*/}-cut
rm -rf "$RUN" && mkdir -p "$RUN/disks"
for i in 0 1 2; do truncate -s 256M "$RUN/disks/fsmtest$i.img"; done
boot_killed cut 'ext2 defaults seq rep 1/1: running' --reuse --disks 3 --size 256M --keep --timeout 600 --plan "$PLANS/reuse-cut.ini"
check "qemu was killed while the third cell ran" test "$KILLED" = yes
boot cut --reuse --disks 3 --size 256M --keep --timeout 900 --plan "$PLANS/reuse-cut.ini"
expect_status "cut: the resumed boot completes the run (exit 0)" 0
j=$(ls "$RUN"/results/*.jsonl 2>/dev/null | head -n 1)
# which cell the cut fell in, and what each resumed cell then takes over: the cell cut
# makes the array again, the later ones of its group take that one
k=$(jq -s '[.[] | select(.type == "cell" and .status == "interrupted") | .index] | first // 0' "$j")
check "cut: the cut fell in the third cell" test "$k" = 3
want_final=
want_reuse=
for i in 1 2 3 4; do
	want_final="$want_final${want_final:+,}${i}$([ "$i" = "$k" ] && echo "i,$i")o"
	if [ "$i" = 1 ] || [ "$i" = "$k" ]; then r=none
	elif [ "$i" -gt "$k" ]; then r=array$k
	else r=array1; fi
	want_reuse="$want_reuse${want_reuse:+,}$i:$r"
done
check "cut: each position has one final record, the one cut also its interrupted attempt" test "$(jq -r -s \
	'[.[] | select(.type == "cell") | "\(.index)\(.status | .[0:1])"] | join(",")' "$j")" = "$want_final"
check "cut: the resumed cell made the array again, the later cells of its group took it over" test "$(jq -r -s \
	'[.[] | select(.type == "cell" and .status == "ok") | "\(.index):\(.reused)\(.reused_from // "")"] | join(",")' "$j")" \
	= "$want_reuse"
check "cut: two mdadm --create in all (the group's, and one after the cut)" test \
	"$(steps "$j" | grep -c ':mdadm --create$')" = 2
rm -rf "$RUN/disks"
