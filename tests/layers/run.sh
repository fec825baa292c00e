#!/bin/bash
# tests/layers/run.sh: the layers of init/ keep to the order the Makefile states, and no file
# calls, through any chain, back into itself.
#
#   tests/layers/run.sh
#
# 1. layers/includes: a file in init/L/ includes only headers of L and of the layers L may
#    use (the table below, as in the Makefile): a lower layer never sees a higher one; a
#    cell's files (init/cell/) see no pid1 header, only the run environment pid1 hands them.
#    Inside core, every file sits in a part (core/PART/) and includes only the parts that
#    part may use (part_may below): core/disk/ and core/boot/ stand alone, the rest is a chain.
# 2. layers/no-cycle-pid1, layers/no-cycle-host: the files of /init, and of out/fsmatrix,
#    compiled one object each; an edge from A to B when A uses a symbol B defines; tsort
#    fails on any loop (fatal() calling up into the watchdog that calls it, say).
# 3. layers/sizes: no C file of init/ (a .c or a .h, at any depth) over 600 lines, no shell
#    script of qemu/, media/, recipes/ and tests/ over 600 either (a script is a .sh file or
#    one whose first line runs sh or bash; fixtures aside), and no function over 80, counted from the first line of its definition to its closing brace
#    (both braces of a function sit at column 0 in this code; a function whose braces do
#    not is not counted, so the test says how many it measured).
# 4. layers/state: the writable objects /init keeps at file scope (from its objects' symbol
#    tables: .data and .bss, function statics aside), each in the reasoned list below; a new
#    one fails until it is a parameter, a field of a struct handed down, or in the list with
#    its reason. A name in the list that is gone fails too, so that the list only shrinks.
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

# core's parts. Two stand alone: the disks (their probes, state and selection) and the boot's
# rules (modules, menus, trust, resume) use only lib and themselves, and the rest of core uses
# neither. The rest is a chain, each part using only those before it:
#   model     a plan's model: its structs, levels, layers, tunables, machine controls
#   workload  the workloads' pure halves: their kinds, sizes, fio's job, the time model's machine
#   figures   figures and judgements: samples, series, verdicts, change points, limits,
#             bottlenecks, the reference set, KCIDB's document
#   matrix    the matrix and its time: cells, order, kernels, shards, reuse, estimate, bisection
#   parse     the plan parser: INI and the kernel command line into a plan or FILE:LINE errors
#   command   one cell's exact commands (mdadm, mkfs, mount, btrfs) and how `check` shows them
declare -A part_may=(
	[core/disk]="lib core/disk"
	[core/boot]="lib core/boot"
)
core_chain="model workload figures matrix parse command"
allowed="lib"
for p in $core_chain; do
	allowed+=" core/$p"
	part_may[core/$p]=$allowed
done
bad=
while IFS= read -r f; do
	rel=${f#init/}
	layer=${rel%%/*}
	[ -n "${may[$layer]+set}" ] || { bad+="$f: init/$layer/ is no known layer"$'\n'; continue; }
	part=$(dirname "$rel")
	[ "$layer" = core ] && [ -z "${part_may[$part]+set}" ] && { bad+="$f: init/$part/ is no known part of core"$'\n'; continue; }
	while IFS= read -r inc; do
		to=${inc%%/*}
		[ "$inc" != "$to" ] || { bad+="$f includes \"$inc\" without its layer"$'\n'; continue; }
		if [ "$layer" = core ]; then
			# the part an include names: core/disk/probe.h is core/disk, lib/file.h lib
			to_part=$(dirname "$inc")
			case " ${part_may[$part]} " in *" $to_part "*) continue ;; esac
			bad+="$f ($part) includes $inc ($to_part)"$'\n'
			continue
		fi
		[ "$to" = "$layer" ] && continue
		case " ${may[$layer]} " in *" $to "*) ;; *) bad+="$f ($layer) includes $inc ($to)"$'\n' ;; esac
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done < <(find init -name '*.[ch]' | sort)
if [ -z "$bad" ]; then
	echo "ok - layers/includes"
else
	echo "FAIL - layers/includes: a layer includes a layer above it, or a part of core another"
	printf '%s' "$bad" | head -n 20 | sed 's/^/#   /'
fi

# The functions still over 80 lines, each with why it is not split yet; a name here that
# is no longer over fails too, so that the list only shrinks.
declare -A long_ok=(
)
MAX_FILE=600 MAX_FN=80
bad=
while read -r n f; do
	[ "$f" = total ] || [ "$n" -le $MAX_FILE ] || bad+="$f: $n lines (at most $MAX_FILE)"$'\n'
done < <(find init -name '*.[ch]' -print0 | sort -z | xargs -0 wc -l)
# shell_scripts: the shell scripts of the repository, one a line
shell_scripts() {
	local f
	git ls-files qemu media recipes tests .ci | grep -v '^tests/\(fixtures\|unit\|fuzz\)/' |
	while IFS= read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.sh) echo "$f" ;;
		*) head -n 1 "$f" | grep -q '^#!.*/\(ba\)\?sh\b' && echo "$f" ;;
		esac
	done
}
nshell=0
while IFS= read -r f; do
	nshell=$((nshell + 1))
	n=$(wc -l <"$f")
	[ "$n" -le $MAX_FILE ] || bad+="$f: $n lines (at most $MAX_FILE; shell too: split it by job into files it sources)"$'\n'
done < <(shell_scripts)
# FILE:LINE NAME LINES for every function: a line at column 0 that begins with a name starts
# a definition (or anything else); a "{" at column 0 after one with a "(" opens its body, the
# next "}" at column 0 closes it (labels at column 0 inside a body are skipped)
find init -name '*.c' -print0 | sort -z | xargs -0 awk '
	FNR == 1 { def = 0; body = 0 }
	/^[A-Za-z_]/ && !body { def = FNR; sig = $0 }
	/^\{/ && def && !body && sig ~ /\(/ { body = 1; next }
	/^\}/ && body {
		name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
		print FILENAME ":" def, name, FNR - def + 1
		body = 0; def = 0
	}' >"$TMP/functions"
declare -A seen=()
while read -r at name n; do
	key=${at%%:*}:$name
	[ "$n" -gt $MAX_FN ] || continue
	seen[$key]=1
	[ -n "${long_ok[$key]+set}" ] && continue
	bad+="$at: $name is $n lines (at most $MAX_FN)"$'\n'
done <"$TMP/functions"
for key in "${!long_ok[@]}"; do
	[ -n "${seen[$key]+set}" ] || bad+="${key%%:*}: ${key#*:} is no longer over $MAX_FN lines: take it out of long_ok"$'\n'
done
if [ -z "$bad" ]; then
	echo "ok - layers/sizes ($(wc -l <"$TMP/functions") functions, ${#long_ok[@]} over $MAX_FN known; $nshell shell scripts)"
	for key in "${!long_ok[@]}"; do echo "#   $key: over $MAX_FN lines, ${long_ok[$key]}"; done | sort
else
	echo "FAIL - layers/sizes: a file over $MAX_FILE lines or a function over $MAX_FN"
	printf '%s' "$bad" | sort | head -n 20 | sed 's/^/#   /'
fi

# no_cycle NAME LAYERS...: objects of those layers, then the loop check
no_cycle() {
	local name=$1 l f o
	shift
	mkdir -p "$TMP/$name"
	for l in "$@"; do
		for f in init/"$l"/*.c init/"$l"/*/*.c; do
			[ -e "$f" ] || continue
			o=$TMP/$name/$(dirname "${f#init/}" | tr / .).$(basename "$f" .c).o
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

# The state /init keeps at file scope, by file: why each is not handed down as a parameter
# yet. PID 1 is one process that owns the machine, so its state is the boot's; what is here
# is what every part of the boot reads (the boot itself, the console) or what a signal or a
# stop hook must reach (they are handed nothing).
declare -A state_ok=(
	[pid1.main:boot]="the boot (struct boot): disks, plan, counts; read by every step"
	[pid1.modules:drivers]="the drivers (struct drivers, pid1/drivers.h), handed down inside modules.c"
	[pid1.console:console]="the console (struct console): the results files and what came before them, written from every step and the stop hook"
	[pid1.console:held]="the console's hold: a shared page the hang watcher (a child) sets so that PID 1 says nothing more and waits for the reboot"
	[pid1.resume:resume]="the resume state (struct resume_state): the journal, read once, asked by matrix.c per cell; handed down inside resume.c"
	[pid1.plan:plan]="the plan being run (its struct is large: 1 MiB, not for the stack)"
	[pid1.plan:run_group]="the plan's shard: set once from the plan"
	[pid1.plan:seed_source]="the plan's order seed: set once from the plan"
	[pid1.plan:shard_load]="the plan's shard: set once from the plan"
	[pid1.plan:shard_owner]="the plan's shard: set once from the plan"
	[pid1.fatal:hooks]="the stop hooks: a fatal error or a signal runs them, with nothing handed"
	[pid1.fatal:stop_sig]="the signal that asked PID 1 to stop (a handler sets it)"
	[pid1.watchdog:fd]="the watchdog device: pinged from the matrix and the fatal path"
	[pid1.watchdog:identity]="the watchdog device: for the header"
	[pid1.watchdog:timeout_s]="the watchdog device: its timeout"
	[pid1.watchdog:why_none]="the watchdog device: why there is none, for the header"
	[pid1.deadline:passed]="the run's deadline: a timer signal sets it"
	[pid1.conditions:qos_fd]="the C-state request: held open for the whole boot (closing it lifts it)"
	[pid1.conditions:states]="the machine's controls as set, for the header and the end"
	[pid1.reference:disk_read_at]="the reference set's disk read: the start's, compared at the end"
	[pid1.reference:disk_to_read]="the reference set's disk read: the start's, compared at the end"
	[pid1.results:mounted]="the results partition: mounted once, unmounted by the stop hook"
	[pid1.results:ready]="the results partition: mounted once, unmounted by the stop hook"
	[pid1.kernels:ks]="the kernel sets on the results partition, read once"
	[pid1.bisect:bs]="the bisection's state, read from the journal once"
	[cell.tunables:devices_owed]="the cell whose members' write caches the stop hook must put back (a hook is handed nothing)"
)
if [ -d "$TMP/pid1" ]; then
	for o in "$TMP/pid1"/*.o; do
		objdump -t "$o" | awk -v o="$(basename "$o" .o)" \
			'$3 == "O" && $4 ~ /^\.(data|bss)$/ && $NF !~ /\./ { print o ":" $NF }'
	done | sort >"$TMP/state"
	bad=
	while read -r s; do
		[ -n "${state_ok[$s]+set}" ] || bad+="${s%%:*}.c keeps ${s#*:} at file scope: hand it down, or give it a reason in state_ok"$'\n'
	done <"$TMP/state"
	for s in "${!state_ok[@]}"; do
		grep -qxF "$s" "$TMP/state" || bad+="$s is no longer at file scope: take it out of state_ok"$'\n'
	done
	if [ -z "$bad" ]; then
		echo "ok - layers/state ($(wc -l <"$TMP/state") objects /init keeps at file scope, each with its reason)"
	else
		echo "FAIL - layers/state: writable state at file scope outside the reasoned list"
		printf '%s' "$bad" | sort | head -n 20 | sed 's/^/#   /'
	fi
fi
