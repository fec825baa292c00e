# 35-conditions: PID 1 sets and proves the machine's state before the first cell. A boot of
# the smoke plan with fsmatrix.thp=never records every control in the header's conditions
# with what was asked, found and read back: under TCG there is no cpufreq, so the governor and
# turbo are unavailable with the reason, never applied; C-states are held at 0 through PM
# QoS and read back; THP is set to never and read back. Every cell record carries the
# header's fingerprint. A second boot under the same conditions gives the same fingerprint;
# a third with fsmatrix.thp=always another one, and its inputs say why.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image
PLAN=$(dirname "$0")/smoke.ini
control() { # NAME FILTER: the header's conditions.controls.NAME makes FILTER true
	printf 'select(.type == "header") | .conditions.controls.%s | %s' "$1" "$2"
}
fingerprint() { jq -r -s 'map(select(.type == "header"))[0].conditions.fingerprint' "$RUN"/results/*.jsonl; }

boot never --disks 1 --size 256M --timeout 300 --plan "$PLAN" --append "fsmatrix.thp=never"
expect_status "the run completes (exit 0)" 0
expect_record "every control is recorded, each with a status" \
	'select(.type == "header") | .conditions.controls | keys == (["clocksource", "cstates", "governor", "nmi_watchdog", "swap", "thp", "turbo"]) and all(.[]; .status | IN("applied", "kept", "refused", "unavailable"))'
expect_record "governor: performance asked, unavailable under TCG, with the reason, never applied" \
	"$(control governor '.asked == "performance" and .status == "unavailable" and .effective == null and (.why | test("no cpufreq policy"))')"
expect_record "turbo: unavailable, with the reason" \
	"$(control turbo '.status == "unavailable" and (.why | length > 0)')"
expect_record "cstates: 0 us asked through PM QoS, read back 0" \
	"$(control cstates '.asked == "0" and .status == "applied" and .effective == "0" and .found != null')"
expect_record "thp: never asked on the command line, found otherwise, read back never" \
	"$(control thp '.asked == "never" and .status == "applied" and .effective == "never"')"
expect_record "swap: none, verified" "$(control swap '.asked == "none" and .effective == "none"')"
expect_record "clocksource: kept and recorded" "$(control clocksource '.status == "kept" and (.effective | length > 0)')"
expect_record "the fingerprint is the sha256 of the inputs as written" \
	'select(.type == "header") | .conditions.fingerprint | test("^[0-9a-f]{64}$")'
check "every cell record carries the header's fingerprint" bash -c '
	jq -e -s "(map(select(.type == \"header\"))[0].conditions.fingerprint) as \$f |
		[.[] | select(.type == \"cell\")] | length > 0 and all(.fingerprint == \$f)" "$1"/results/*.jsonl >/dev/null' _ "$RUN"
first=$(fingerprint)

boot again --disks 1 --size 256M --timeout 300 --plan "$PLAN" --append "fsmatrix.thp=never"
check "the same conditions on another boot: the same fingerprint" test "$(fingerprint)" = "$first"

boot always --disks 1 --size 256M --timeout 300 --plan "$PLAN" --append "fsmatrix.thp=always"
expect_record "thp always: applied and read back" "$(control thp '.effective == "always"')"
check "other conditions: another fingerprint" test "$(fingerprint)" != "$first"
expect_record "the inputs say what differs: thp" \
	'select(.type == "header") | .conditions.inputs.controls.thp == "always"'
# smoke.ini says reference = no: no reference set, and the report's Conditions say so
check "reference = no: no reference record, and the report says none was recorded" bash -c '
	! jq -e -s "any(.[]; .type == \"reference\")" "$2"/results/*.jsonl >/dev/null &&
	"$1"/out/fsmatrix report "$2" | grep -q "^  reference    none recorded (the plan key reference = no"' _ "$FSM_ROOT" "$RUN"
