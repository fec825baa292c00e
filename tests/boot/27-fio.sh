# 27-fio: the latency engines in a real boot (tests/plans/fio-engines.ini on one raw disk
# with ext4): seqread reads back what it wrote, fsync measures every append's fsync while a
# background writer streams, fio runs a job file from the image (/plans/randrw.fio) and
# inline jobs through libaio and io_uring, each ok with its figures in the record; an fio
# job whose rw fio refuses is an error cell carrying fio's own message; the header names
# fio's version, and the report shows the p99 latencies.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

cell_of() { cell "disk/ext4/defaults/$1"; }   # WORKLOAD: its cell on the disk's ext4
boot fio --disks 1 --size 512M --timeout 600 --plan "$FSM_ROOT/tests/plans/fio-engines.ini"
expect_status "the run completes (exit 0)" 0
expect_record "the header names the image's fio" \
	'select(.type == "header") | .tools.fio == "fio-3.33"'
expect_record "seqread: ok, 32 MiB read back after the write" \
	"$(cell_of seqread) | .status == \"ok\" and .result.bytes == 33554432 and .result.mbps > 0 and .result.write_mbps > 0"
expect_record "fsync: ok, 64 appends with percentiles in order, the background writer wrote" \
	"$(cell_of fsync) | .status == \"ok\" and .result.appends == 64 and .result.background_bytes > 0 and (.result | .lat_p50_us > 0 and .lat_p50_us <= .lat_p99_us and .lat_p99_us <= .lat_max_us)"
expect_record "fio job file: ok, fio-3.33, both jobs with read and write p99" \
	"$(cell_of fiojob) | .status == \"ok\" and .result.fio_version == \"fio-3.33\" and .result.job_file == \"/plans/randrw.fio\" and (.result.job | test(\"\\\\[randwrite\\\\]\")) and ([.result.jobs[].name] == [\"randread\", \"randwrite\"]) and .result.jobs[0].read.clat_p99_us > 0 and .result.jobs[1].write.clat_p99_us > 0 and .result.read_iops > 0"
expect_record "fio inline libaio: ok, the command as check prints it, 2048 reads" \
	"$(cell_of aio) | .status == \"ok\" and .result.command == \"fio --output-format=json --name=aio --rw=randread --bs=4096 --size=8388608 --ioengine=libaio --iodepth=8 --direct=1\" and .result.jobs[0].read.total_ios == 2048 and .result.read_clat_p99_us > 0 and .result.write_iops == null"
expect_record "fio inline io_uring: ok, 2048 writes with latency percentiles" \
	"$(cell_of uring) | .status == \"ok\" and (.result.command | test(\"--ioengine=io_uring\")) and .result.jobs[0].write.total_ios == 2048 and .result.write_clat_p99_us > 0 and .result.write_clat_max_us >= .result.write_clat_p99_us"
expect_record "fio with a bad option: an error cell with fio's message" \
	"$(cell_of badopt) | .status == \"error\" and (.error | test(\"fio exited 1: fio: failed parsing rw=randomread\"))"
expect_record "the trailer counts 5 ok and 1 error" \
	'select(.type == "trailer") | .cells == 6 and .counts.ok == 5 and .counts.error == 1'
report=$("$FSM_ROOT/out/fsmatrix" report "$RUN" 2>&1)
check "the report shows fsync's and fio's p99 latency in us, lower is better" \
	bash -c 'grep -q "^fsync: p99 in us, lower is better" <<<"$1" && grep -q "^fiojob: read p99 in us, lower is better" <<<"$1" && grep -q "^uring: write p99 in us, lower is better" <<<"$1"' _ "$report"

# What a lab's LAVA makes of this console: the monitor `fsmatrix lava` writes for the plan
# turns every cell repetition into a test case (and the run as a whole into one, "run": ran),
# and each ok cell's main figure (a latency, an IOPS or a
# write-only job's MB/s, not a read column it does not have) into its measurement and unit.
lava_cases() {
	local jobs=$FSM_TEST_RUNS/27-fio-lava
	rm -rf "$jobs"
	"$FSM_ROOT/out/fsmatrix" lava "$FSM_ROOT/tests/plans/fio-engines.ini" --shards 1 -o "$jobs" >/dev/null &&
		python3 "$FSM_ROOT/tests/lava/monitor-cases" "$jobs"/*.yaml "$RUN/console.log" |
		jq -es --argjson cells "$(records_console | jq -sc 'map(select(.type == "cell"))')" '
			. as $cases | length == ($cells | length) + 1 and length == 7 and
			(map(select(.test_case_id == "run")) | length == 1 and .[0].result == "ran") and
			([$cells[] as $c |
				$cases | map(select(.test_case_id == $c.case)) | length == 1 and (.[0] |
				.result == $c.status and (($c.status != "ok") or
				(.measurement != null and (.measurement | tonumber) == $c.figure.value and
				 .units == $c.figure.unit)))] | all)' >/dev/null
}
check "LAVA's monitor makes each cell a test case, each ok one with its figure as measurement" lava_cases
