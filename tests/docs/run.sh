#!/bin/bash
# tests/docs/run.sh: the manual's links resolve, and the README leads to every docs file.
#
#   tests/docs/run.sh [--update]
#
# 1. docs/links: in README.md and docs/*.md, every relative link [text](TARGET) outside code
#    names a file that exists, and its #anchor (or a bare #anchor) a heading of that file,
#    as GitHub spells it: lower case, spaces to hyphens, everything but letters, digits, _
#    and - dropped, "-1", "-2" after a repeated heading. Links to http(s) and mailto are not
#    followed.
# 2. docs/index: README.md links every docs/*.md, and stays the front door: 250 lines at most.
# 3. docs/plan-example: the plan under "Every key in one plan" in docs/plans.md passes
#    `out/fsmatrix check --disks 4`, and every line of the output shown after it ("..." aside)
#    is a line of what check prints now.
# 4. docs/plan-keys, docs/kernel-parameters: docs/plans.md's key table (between "<!-- plan
#    keys: begin -->" and "<!-- plan keys: end -->") and docs/kernel-parameters.md's (between
#    "<!-- kernel parameters: ... -->") are what `out/fsmatrix keys --markdown [kernel]` writes
#    from the parsers' rows; --update rewrites them from there (review it with git diff).
# One line per test, "ok - docs/NAME" or "FAIL - docs/NAME: why" and "#" detail lines.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
export LC_ALL=C
FSM=$ROOT/out/fsmatrix
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
update=0
[ "${1:-}" != --update ] || update=1

# anchors FILE: every anchor the file's headings give, one a line (fenced code skipped).
anchors() {
	awk '
	/^(```|~~~)/ { code = !code; next }
	code || !/^#+ / { next }
	{
		s = tolower($0)
		sub(/^#+ +/, "", s)
		gsub(/[^a-z0-9 _-]/, "", s)
		gsub(/ /, "-", s)
		if (s in seen) { n = seen[s]++; print s "-" n } else { seen[s] = 1; print s }
	}' "$1"
}

# links FILE: "LINE TARGET" for every inline link outside fenced code and code spans.
links() {
	awk '
	/^(```|~~~)/ { code = !code; next }
	code { next }
	{
		line = $0
		gsub(/`[^`]*`/, "", line)
		while (match(line, /\]\([^) ]+\)/)) {
			print NR " " substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1"
}

files=(README.md docs/*.md)
bad=
checked=0
for f in "${files[@]}"; do
	[ -e "$f" ] || continue
	dir=$(dirname "$f")
	while read -r n target; do
		case $target in http://* | https://* | mailto:*) continue ;; esac
		checked=$((checked + 1))
		path=${target%%#*} anchor=
		[ "$path" = "$target" ] || anchor=${target#*#}
		if [ -z "$path" ]; then
			dest=$f
		else
			dest=$path
			[ "$dir" = . ] || dest=$dir/$path
			if [ ! -e "$dest" ]; then
				bad+="$f:$n: $target: no such file"$'\n'
				continue
			fi
		fi
		[ -n "$anchor" ] || continue
		case $dest in *.md) ;; *) bad+="$f:$n: $target: an anchor into a file that is not markdown"$'\n'; continue ;; esac
		anchors "$dest" | grep -qxF -- "$anchor" ||
			bad+="$f:$n: $target: no heading gives #$anchor in $dest"$'\n'
	done < <(links "$f")
done
if [ -z "$bad" ]; then
	echo "ok - docs/links ($checked links)"
else
	echo "FAIL - docs/links: $(printf '%s' "$bad" | grep -c .) of $checked links do not resolve"
	printf '%s' "$bad" | sed 's/^/#   /'
fi

missing=
for d in docs/*.md; do
	[ -e "$d" ] || continue
	links README.md | grep -qE " $d(#|$)" || missing+=" $d"
done
readme_lines=$(wc -l <README.md)
if [ -n "$missing" ]; then
	echo "FAIL - docs/index: README.md does not link$missing"
elif [ "$readme_lines" -gt 250 ]; then
	echo "FAIL - docs/index: README.md has $readme_lines lines, at most 250 (the front door: the rest goes to docs/)"
else
	echo "ok - docs/index ($readme_lines lines of README.md)"
fi

# blocks FILE HEADING: the first two fenced blocks after the heading, as $TMP/block1, $TMP/block2.
blocks() {
	awk -v h="$2" -v dir="$TMP" '
	$0 == h { on = 1; next }
	on && /^#+ / { exit }
	on && /^```/ { if (code) { code = 0; if (++n == 2) exit } else code = 1; next }
	on && code { print > (dir "/block" (n + 1)) }' "$1"
}
blocks docs/plans.md "## Every key in one plan"
if [ ! -s "$TMP/block1" ] || [ ! -s "$TMP/block2" ]; then
	echo "FAIL - docs/plan-example: no plan and output under \"## Every key in one plan\" in docs/plans.md"
else
	mv "$TMP/block1" "$TMP/every-key.ini"
	(cd "$TMP" && timeout 60 "$FSM" check every-key.ini --disks 4) >"$TMP/out" 2>&1
	rc=$?
	stale=$(grep -vxF '...' "$TMP/block2" | grep -vxF -f "$TMP/out")
	if [ "$rc" != 0 ]; then
		echo "FAIL - docs/plan-example: fsmatrix check exited with status $rc"
		head -n 5 "$TMP/out" | sed 's/^/#   /'
	elif [ -n "$stale" ]; then
		echo "FAIL - docs/plan-example: lines shown in docs/plans.md that check no longer prints"
		printf '%s\n' "$stale" | head -n 5 | sed 's/^/#   /'
	else
		echo "ok - docs/plan-example"
	fi
fi

# between FILE BEGIN END: the lines strictly between the two marker lines
between() { awk -v b="$2" -v e="$3" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' "$1"; }
# generated NAME FILE MARKER ARGS...: FILE's table between "<!-- MARKER: begin -->" and
# "<!-- MARKER: end -->" is what `fsmatrix ARGS` prints (--update: rewritten from it)
generated() {
	local name=$1 file=$2 begin="<!-- $3: begin -->" end="<!-- $3: end -->"
	shift 3
	if ! "$FSM" "$@" >"$TMP/$name" 2>"$TMP/$name.err"; then
		echo "FAIL - docs/$name: fsmatrix $* failed: $(head -n 1 "$TMP/$name.err")"
	elif [ "$update" = 1 ]; then
		awk -v b="$begin" -v e="$end" -v f="$TMP/$name" '
			$0 == e { while ((getline l < f) > 0) print l; on = 0 }
			!on { print } $0 == b { on = 1 }' "$file" >"$TMP/$name.md" && cp "$TMP/$name.md" "$file"
		echo "ok - docs/$name (rewritten)"
	elif ! grep -qxF "$begin" "$file" || ! grep -qxF "$end" "$file"; then
		echo "FAIL - docs/$name: $file has no \"$begin\" ... \"$end\" table"
	elif ! between "$file" "$begin" "$end" | diff -u - "$TMP/$name" >"$TMP/$name.diff"; then
		echo "FAIL - docs/$name: $file's table is not what the rows say (tests/docs/run.sh --update)"
		head -n 12 "$TMP/$name.diff" | sed 's/^/#   /'
	else
		echo "ok - docs/$name ($(($(wc -l <"$TMP/$name") - 2)) rows)"
	fi
}
generated plan-keys docs/plans.md "plan keys" keys --markdown
generated kernel-parameters docs/kernel-parameters.md "kernel parameters" keys --markdown kernel
