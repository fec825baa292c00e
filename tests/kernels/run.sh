#!/bin/bash
# tests/kernels/run.sh: recipes/linux/setinfo, which writes out/kernels/NAME/set, on made-up
# packages whose truth is known: the upstream release from the newest changelog entry of
# `linux` that names a stable update (the newest of several in one upload), checked against
# the image's own version string; a kernel brought without a package; and what it refuses.
# Then the pinned kernel's own package, when build/linux holds it.
#
#   tests/kernels/run.sh
#
# One line per test, "ok - kernels/NAME", "FAIL - kernels/NAME: why" or "skip - ...".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TIER=kernels
. "$ROOT/tests/tier.sh"

# package DIR PKG VERSION BANNER CHANGELOG: a recipe and an extracted .deb as the build has
# them, its vmlinuz a few random bytes around BANNER
package() {
	local d=$1
	mkdir -p "$d/src/usr/share/doc/$2" "$d/src/boot"
	printf 'package=%s\ndebian_version=%s\n' "$2" "$3" >"$d/recipe"
	{ head -c 600 /dev/urandom; printf '\0%s\0' "$4"; head -c 600 /dev/urandom; } >"$d/vmlinuz"
	printf '%s' "$5" | gzip -n >"$d/src/usr/share/doc/$2/changelog.gz"
}
BANNER='6.1.0-47-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)'
LOG='linux-signed-amd64 (6.1.192+3) bookworm-security; urgency=high

  * Sign kernel from linux 6.1.192-3

linux (6.1.192-2) bookworm-security; urgency=high

  * ext4: a fix of its own, no stable update

linux (6.1.192-1) bookworm-security; urgency=high

  * New upstream stable update:
    https://www.kernel.org/pub/linux/kernel/v6.x/ChangeLog-6.1.191
  * New upstream stable update:
    https://www.kernel.org/pub/linux/kernel/v6.x/ChangeLog-6.1.192

linux (6.1.190-1) bookworm-security; urgency=high

  * New upstream stable update:
    https://www.kernel.org/pub/linux/kernel/v6.x/ChangeLog-6.1.200
'
P=$TMP/p
package "$P" linux-image-6.1.0-47-amd64 6.1.192-3 "$BANNER" "$LOG"
want="name=6.1.0-47
kernel_release=6.1.0-47-amd64
kernel_version=#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)
package=linux-image-6.1.0-47-amd64
package_version=6.1.192-3
upstream=6.1.192
upstream_from=changelog"
if got=$(recipes/linux/setinfo 6.1.0-47 "$P/vmlinuz" "$P/recipe" "$P/src" 2>&1) && [ "$got" = "$want" ]; then
	ok "setinfo-changelog (the newest of two stable updates in one upload; an older entry's ignored)"
else
	fail setinfo-changelog "got: $(printf '%s' "$got" | tr '\n' ' ')"
fi
got=$(recipes/linux/setinfo mine "$P/vmlinuz" 2>&1)
if printf '%s\n' "$got" | grep -qx 'upstream=6.1.192' && printf '%s\n' "$got" | grep -qx 'upstream_from=uname-v' &&
	printf '%s\n' "$got" | grep -qx 'package='; then
	ok "setinfo-no-package (upstream from the version string alone)"
else
	fail setinfo-no-package "got: $(printf '%s' "$got" | tr '\n' ' ')"
fi
Q=$TMP/q
package "$Q" custom x "6.8.0 (me@host) (gcc 12) #3 SMP Tue Jan 2 10:00:00 UTC 2026" ""
got=$(recipes/linux/setinfo mine "$Q/vmlinuz" 2>&1)
if printf '%s\n' "$got" | grep -qx 'upstream=' && printf '%s\n' "$got" | grep -qx 'upstream_from=none' &&
	printf '%s\n' "$got" | grep -qx 'kernel_release=6.8.0'; then
	ok "setinfo-custom (a kernel of no Debian version: upstream empty, from none)"
else
	fail setinfo-custom "got: $(printf '%s' "$got" | tr '\n' ' ')"
fi
# refused: the changelog and the image disagree; no version string; no changelog
R=$TMP/r
package "$R" linux-image-6.1.0-47-amd64 6.1.192-3 "$BANNER" "${LOG//6.1.192
/6.1.189
}"
bad=
while IFS='|' read -r what want args; do
	# shellcheck disable=SC2086
	out=$(recipes/linux/setinfo $args 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -qF -- "$want" ||
		bad="$bad; $what: status $rc, \"$out\""
done <<EOF2
disagree|the changelog names upstream 6.1.191, the image's version string Debian 6.1.192|x $R/vmlinuz $R/recipe $R/src
not a bzImage|holds no kernel version string|x $P/recipe
no changelog|unable to read $TMP/src/usr/share/doc/linux-image-6.1.0-47-amd64/changelog.gz|x $P/vmlinuz $P/recipe $TMP/src
no image|unable to read $TMP/none|x $TMP/none
EOF2
if [ -z "$bad" ]; then ok "setinfo-refuses (4 cases: one line, status 1)"; else fail setinfo-refuses "${bad#; }"; fi

# the pinned kernel's package as the build extracted it
if [ -s build/linux/dest/vmlinuz ] && [ -d build/linux/src/usr/share/doc ]; then
	want_up=$(. recipes/linux/recipe; echo "${debian_version%-*}")
	got=$(recipes/linux/setinfo 6.1 build/linux/dest/vmlinuz recipes/linux/recipe build/linux/src 2>&1)
	if printf '%s\n' "$got" | grep -qx "upstream=$want_up" && printf '%s\n' "$got" | grep -qx 'upstream_from=changelog'; then
		ok "setinfo-pinned (recipes/linux: upstream $want_up from its changelog)"
	else
		fail setinfo-pinned "got: $(printf '%s' "$got" | tr '\n' ' ')"
	fi
else
	skip setinfo-pinned "build/linux is not built (make)"
fi
exit $failed
