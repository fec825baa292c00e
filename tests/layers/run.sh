#!/bin/bash
# tests/layers/run.sh: the layers of init/ keep to the order the Makefile states, and no file
# calls, through any chain, back into itself.
#
#   tests/layers/run.sh
#
# 1. layers/includes: a file in init/L/ includes only headers of L and of the layers L may
#    use (the table below, as in the Makefile): a lower layer never sees a higher one; a
#    cell's files (init/cell/) see no pid1 header, only the run environment pid1 hands them.
# 2. layers/no-cycle-pid1, layers/no-cycle-host: the files of /init, and of out/fsmatrix,
#    compiled one object each; an edge from A to B when A uses a symbol B defines; tsort
#    fails on any loop (fatal() calling up into the watchdog that calls it, say).
# One line per test, "ok - layers/NAME" or "FAIL - layers/NAME: why" and "#" detail lines.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT; [ -z "${KEEP_TMP:-}" ] || trap - EXIT

declare -A may=(
	[lib]=""
	[core]="lib"
	[engines]="lib core"
	[cell]="lib core engines"
	[pid1]="lib core engines cell"
	[report]="lib core"
	[cli]="lib core engines report"
	[pack]="lib"
)

bad=
for f in init/*/*.[ch]; do
	layer=$(basename "$(dirname "$f")")
	[ -n "${may[$layer]+set}" ] || { bad+="$f: init/$layer/ is no known layer"$'\n'; continue; }
	while IFS= read -r inc; do
		to=${inc%%/*}
		[ "$inc" != "$to" ] || { bad+="$f includes \"$inc\" without its layer"$'\n'; continue; }
		[ "$to" = "$layer" ] && continue
		case " ${may[$layer]} " in *" $to "*) ;; *) bad+="$f ($layer) includes $inc ($to)"$'\n' ;; esac
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
if [ -z "$bad" ]; then
	echo "ok - layers/includes"
else
	echo "FAIL - layers/includes: a layer includes a layer above it"
	printf '%s' "$bad" | head -n 20 | sed 's/^/#   /'
fi

# no_cycle NAME LAYERS...: objects of those layers, then the loop check
no_cycle() {
	local name=$1 l f o
	shift
	mkdir -p "$TMP/$name"
	for l in "$@"; do
		for f in init/"$l"/*.c; do
			o=$TMP/$name/$l.$(basename "$f" .c).o
			gcc -std=c11 -D_GNU_SOURCE -Iinit -O0 -c -o "$o" "$f" 2>>"$TMP/$name.err" ||
				{ echo "FAIL - layers/no-cycle-$name: unable to compile $f"; sed 's/^/#   /' "$TMP/$name.err" | head -5; return; }
		done
	done
	# defs: "symbol object"; uses: "object symbol"
	for o in "$TMP/$name"/*.o; do
		nm --defined-only -g "$o" | awk -v o="$(basename "$o" .o)" 'NF == 3 && $2 == "T" { print $3, o }'
	done | sort >"$TMP/$name.defs"
	for o in "$TMP/$name"/*.o; do
		nm -u "$o" | awk -v o="$(basename "$o" .o)" '{ print $NF, o }'
	done | sort >"$TMP/$name.uses"
	# "user definer" pairs; tsort wants "before after", and reports any loop on stderr
	join "$TMP/$name.uses" "$TMP/$name.defs" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$TMP/$name.edges"
	if tsort "$TMP/$name.edges" >/dev/null 2>"$TMP/$name.loop"; then
		echo "ok - layers/no-cycle-$name ($(wc -l <"$TMP/$name.edges") calls between files)"
	else
		echo "FAIL - layers/no-cycle-$name: files call each other in a loop"
		grep -v '^tsort: -: input contains a loop:' "$TMP/$name.loop" | sed 's/^tsort: /#   /' | head -n 12
	fi
}
no_cycle pid1 lib core engines cell pid1
no_cycle host lib core engines report cli
