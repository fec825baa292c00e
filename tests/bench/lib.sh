# tests/bench/lib.sh: what every benchmark of tests/bench/run sources.
#
#   stats N...               JSON {n, values, median, mean, min, max, cv} of the numbers
#   figure KEY JSON          records one figure: JSON is an object with "value" (a number, or
#                            null with "reason") and its raw numbers; written to
#                            $FIGS/KEY.json, collected by tests/bench/run into out/bench.json
#   show KEY TEXT            the figure's one line (KEY, value, TEXT)
#   cmd TEXT                 a command line compared, printed as "#   $ TEXT" to rerun by hand
#   note TEXT                any other line of detail, printed as "#   TEXT"
#   unmeasured KEY REASON    the figure is null, and the line says why
#   drop_caches              sync, then drop the page cache when root (else says so once)
#   order I A B              the two sides of run I: "A B" for even I, "B A" for odd I, so
#                            that neither side always runs first (A B B A A B ...: on this
#                            host, whichever ran second in a pair was seen slower)
# shellcheck shell=bash

stats() { # NUMBER...
	printf '%s\n' "$@" | jq -s '
		sort as $s | length as $n | (add / $n) as $mean
		| {n: $n, values: ., min: $s[0], max: $s[-1],
		   median: (if $n % 2 == 1 then $s[($n - 1) / 2]
		            else ($s[$n / 2 - 1] + $s[$n / 2]) / 2 end),
		   mean: $mean,
		   cv: (if $n > 1 and $mean != 0
		        then ((map(. - $mean | . * .) | add) / ($n - 1) | sqrt) / $mean
		        else null end)}'
}

figure() { printf '%s\n' "$2" | jq --arg k "$1" '{($k): .}' >"$FIGS/$1.json"; }

show() { printf '%-20s %s\n' "$1" "$2"; }
cmd() { printf '#   $ %s\n' "$*"; }
note() { printf '#   %s\n' "$*"; }

unmeasured() { # KEY REASON
	figure "$1" "$(jq -n --arg r "$2" '{value: null, reason: $r}')"
	show "$1" "not measured: $2"
}

# 3 decimals, for the lines people read
fmt() { jq -rn --argjson v "${1:-null}" 'if $v == null then "null" else ($v * 1000 | round / 1000 | tostring) end'; }

_drop_warned=0
drop_caches() {
	sync
	if [ -w /proc/sys/vm/drop_caches ]; then
		echo 3 >/proc/sys/vm/drop_caches
	elif [ "$_drop_warned" = 0 ]; then
		note "not root: the page cache is not dropped between runs"
		_drop_warned=1
	fi
}

order() { if [ $(($1 % 2)) = 0 ]; then echo "$2 $3"; else echo "$3 $2"; fi; }
