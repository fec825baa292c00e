# 03-safety: the disk-safety rules, on a real boot, with byte-for-byte proof.
# Three disks beside the results disk: fsmtest0 and fsmtest2 blank, fsmtest1 holding an ext4
# filesystem with a file.
#  1. No fsmatrix.disks=: every disk is listed with why it was not taken, every cell is
#     recorded as skipped, and all three disks are unchanged.
#  2. fsmatrix.disks= names all three and the results disk (vda); fsmatrix.wipe= names the
#     results disk too: the ext4 disk is refused for its signature and stays byte-identical,
#     the results disk is never taken yet still receives the results, the blank disks run.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
command -v mkfs.ext4 >/dev/null || skip_all "mkfs.ext4 is missing on the host (e2fsprogs)"
PLAN=$(dirname "$0")/smoke.ini

prepare() { # RUN: the three disks, made on the host, and their snapshots
	rm -rf "$1" "$1.data" && mkdir -p "$1/disks" "$1.data"
	echo "fsmatrix must not touch this file" >"$1.data/precious.txt"
	truncate -s 128M "$1/disks/fsmtest0.img" "$1/disks/fsmtest1.img" "$1/disks/fsmtest2.img"
	mkfs.ext4 -q -F -d "$1.data" "$1/disks/fsmtest1.img"
	rm -rf "$1.data"
	local d
	for d in 0 1 2; do snapshot "$1/disks/fsmtest$d.img"; done
}
verdict() { # SERIAL VERDICT: the jq filter for one disk's verdict in the header
	printf 'select(.type == "header") | .disks[] | select(.serial == "%s") | .verdict == "%s"' "$1" "$2"
}

# 1. nothing named
prepare "$FSM_TEST_RUNS/03-safety-unnamed"
boot unnamed --disks 3 --size 128M --reuse --keep --no-select --timeout 300 --plan "$PLAN"
expect_status "without fsmatrix.disks= the run completes" 0
expect_console "the console says why no disk was taken" 'fsmatrix\.disks='
for d in 0 1 2; do
	expect_record "unnamed: fsmtest$d is not taken" "$(verdict fsmtest$d not-named)"
done
expect_record "unnamed: every cell is skipped, with a reason" \
	'select(.type == "trailer") | .counts.ok == 0 and .counts.error == 0 and .counts.skipped == .cells'
expect_no_console "unnamed: no cell ran" '"type":"cell".*"status":"(ok|error|timeout)"'
for d in 0 1 2; do
	sha256_unchanged "unnamed: fsmtest$d is unchanged, byte for byte" "$RUN/disks/fsmtest$d.img"
done

# 2. everything named, the results disk twice
prepare "$FSM_TEST_RUNS/03-safety-named"
boot named --disks 3 --size 128M --reuse --keep --no-select --timeout 300 --plan "$PLAN" \
	--append "fsmatrix.disks=serial:fsmtest*,vda fsmatrix.wipe=vda"
expect_status "with every disk named the run completes" 0
expect_record "named: the ext4 disk is refused for its signature" "$(verdict fsmtest1 has-signature)"
expect_record "named: the refusal names the signature and how to override it" \
	'select(.type == "header") | .disks[] | select(.serial == "fsmtest1") | .reason | test("ext4") and test("fsmatrix.wipe=")'
expect_record "named: the results disk is never a test disk, even named in disks= and wipe=" \
	'select(.type == "header") | .disks[] | select(.name == "vda") | .verdict == "results-disk"'
expect_record "named: blank fsmtest0 is taken" "$(verdict fsmtest0 taken)"
expect_record "named: blank fsmtest2 is taken" "$(verdict fsmtest2 taken)"
# the kernel names the virtio disks in probe order, which can vary: the ext4 disk by serial
ext4=$(records_console | jq -r 'select(.type == "header") | .disks[] | select(.serial == "fsmtest1") | .name')
expect_record "named: the cell ran on a blank disk, not on the ext4 one ($ext4)" \
	"select(.type == \"cell\") | .status == \"ok\" and (\"$ext4\" | length > 0) and (.disks | index(\"$ext4\") | not)"
expect_file "named: the results still reached the results disk" 'results/*.jsonl'
sha256_unchanged "named: the ext4 disk is unchanged, byte for byte" "$RUN/disks/fsmtest1.img"
