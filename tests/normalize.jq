# tests/normalize.jq: records with what differs from boot to boot taken out (docs/code.md):
# ids, clocks, durations and rates, and the texts that carry UUIDs and times (mdadm --detail,
# tune2fs -l / xfs_db, the steps' stderr), and the value of a cell's main figure.
def timing: test("(^|_)(ms|s|time|mbps|mbps_noflush|files_per_s|pct|elapsed_s|ready_ms)$") or test("_s$") or test("_ms$") or test("_pct$");
walk(if type == "object" then
       with_entries(select((.key | timing) | not))
       | del(.run, .boot_run_id, .manifest_sha256, .md_detail, .fs_geometry, .stderr, .stats)
       | if (.figure | type) == "object" then del(.figure.value) else . end
     else . end)
