#!/bin/bash
# tests/image/run.sh: checks of the image build itself, one line each, as tests/run
# expects: "ok - image/NAME" or "FAIL - image/NAME: why", then "#" lines of detail.
#
# - reproducible: packing the same inputs twice gives the same bytes, equal to out/'s image.
#   (That the package binaries themselves come out bit-identical from two clean builds was
#   shown once, by hand, and is noted in docs/image.md: a clean rebuild takes minutes.)
# - own-kernel: `make KERNEL=... MODULES=...` with the pinned Debian kernel given as paths
#   builds an image byte-identical to the default one, so the boot tests cover it too, and
#   leaves every file of the given tree as it was.
# - incremental: after an edit in init/, make would rebuild /init and repack, and nothing else.
# - modules: every module of recipes/linux/modules.list is in the image's module squashfs with
#   depmod metadata, plus the softdeps and codepages no dependency names; loop and squashfs,
#   which mounting it takes, are beside it.
# - modules-pristine: every module of the image (in its squashfs and in lib/modules-boot) is
#   byte for byte the one the pinned kernel package holds (sha256 read from the .deb in dl/
#   here, not from the build's own list), and the image's MANIFEST says "pristine".
# - module-ftrace, module-orc: the opt-in rewrite for qemu-only images (MODULES_REWRITE=qemu),
#   run here by recipes/linux/closure into a scratch folder: no module keeps a "call
#   __fentry__" or its __mcount_loc (each is already the NOP the kernel would make it at
#   load), nor its ORC unwind tables (MODULE_ORC=strip), nor its signature.
# - manifest: out/MANIFEST names every recipe's input and the true sha256 of every output.
# - budget: the compressed image is at most 10 MiB (recipes/sizes).
# - fio: the image's fio runs (`fio --version` says fio-3.33) and has the libaio, io_uring,
#   psync and sync engines built in.
# - static: every program in the image (FSM_TEST_INITRD, if set) is static, stripped and free
#   of glibc; kernel modules (ELF relocatable objects) are skipped: the kernel loads them.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
IMG=out/initramfs.img

TIER=image
. "$ROOT/tests/tier.sh"

sum() { sha256sum "$1" | cut -d' ' -f1; }
KREL=$(cat build/modules/kernel-release 2>/dev/null)

# reproducible: with the Makefile's epoch, as make passes it.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(sed -n 's/^SOURCE_DATE_EPOCH ?= *//p' Makefile)}
export SOURCE_DATE_EPOCH
pkgs=(build/busybox/dest build/mdadm/dest build/e2fsprogs/dest build/xfsprogs/dest build/btrfs-progs/dest build/fio/dest build/lvm2/dest build/bcache-tools/dest)
recipes/pack "$TMP/t1" "$TMP/a.img" out/init build/modules "${pkgs[@]}" 2>"$TMP/pack.log"
sleep 1 # a different wall clock must not matter
recipes/pack "$TMP/t2" "$TMP/b.img" out/init build/modules "${pkgs[@]}" 2>>"$TMP/pack.log"
if [ "$(sum "$TMP/a.img")" = "$(sum "$TMP/b.img")" ] && [ "$(sum "$TMP/a.img")" = "$(sum "$IMG")" ]; then
	ok reproducible
else
	fail reproducible "two packs of the same inputs differ, or differ from $IMG" \
		"$(sha256sum "$TMP"/?.img "$IMG" 2>&1)" "$(cat "$TMP/pack.log")"
fi

# own-kernel. The closure runs again (its stamp removed): it checks the modules it copies
# against the tree given as MODULES=, which must only be read.
byok=build/byok
given=build/linux/dest/lib/modules/$KREL
tree_sum() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1); }
given_before=$(tree_sum "$given")
rm -f build/modules-custom/.done-*
if make -s OUT=$byok KERNEL=build/linux/dest/vmlinuz MODULES="$given" \
	$byok/initramfs.img $byok/vmlinuz > "$TMP/byok.log" 2>&1; then
	if [ "$(tree_sum "$given")" != "$given_before" ]; then
		fail own-kernel "building from MODULES=$given changed a file of that tree"
	elif cmp -s $byok/initramfs.img "$IMG" && cmp -s $byok/vmlinuz out/vmlinuz; then
		ok own-kernel
	else
		fail own-kernel "the image built from KERNEL=/MODULES= paths differs from the default one" \
			"$(cd $byok && find . -type f | head)"
	fi
else
	fail own-kernel "make KERNEL=... MODULES=... failed" "$(tail -5 "$TMP/byok.log")"
fi

# incremental: -W pretends the file changed, -n prints what would run.
make -n -W init/core/parse/cmdline.c out/initramfs.img > "$TMP/inc.log" 2>&1
if grep -q 'musl-gcc' "$TMP/inc.log" && grep -q 'recipes/pack' "$TMP/inc.log" &&
	! grep -qE 'recipes/(step|linux/closure)' "$TMP/inc.log"; then
	ok incremental
else
	fail incremental "an edit in init/ should rebuild /init and repack only" "$(head -20 "$TMP/inc.log")"
fi

# modules
mkdir -p "$TMP/root"
(cd "$TMP/root" && "$ROOT/recipes/compress" -d "$ROOT/$IMG" | cpio -id --quiet 2>/dev/null)
missing=()
# the modules and programs are a squashfs /init mounts on /usr (MODULES_IMAGE=squashfs), with
# loop and squashfs beside it in lib/modules-boot, in the order they load; /lib/modules links
# to /usr/lib/modules
if [ -f "$TMP/root/lib/usr.sqfs" ]; then
	unsquashfs -q -n -d "$TMP/sqfs" "$TMP/root/lib/usr.sqfs" > /dev/null 2>&1 || missing+=("lib/usr.sqfs unreadable")
	mdir=$TMP/sqfs/lib/modules/$KREL
	[ "$(readlink "$TMP/root/lib/modules")" = /usr/lib/modules ] || missing+=("lib/modules -> /usr/lib/modules")
	[ "$(cut -d' ' -f1 "$TMP/root/lib/modules-boot/order" 2>/dev/null | tr '\n' ' ')" = "loop.ko squashfs.ko " ] ||
		missing+=("lib/modules-boot/order: loop.ko and squashfs.ko")
else
	missing+=("lib/usr.sqfs")
	mdir=$TMP/root/lib/modules/$KREL
fi
while read -r m; do
	m=${m%%#*}; read -r m _ <<<"$m" || true
	[ -n "$m" ] || continue
	grep -qE "/${m//_/[-_]}\.ko:" "$mdir/modules.dep" 2>/dev/null || missing+=("$m")
done < recipes/linux/modules.list
for m in crc32c_generic libcrc32c nls_cp437; do # softdep, dependency, and no-one's dependency
	grep -qE "/${m//_/[-_]}\.ko:" "$mdir/modules.dep" 2>/dev/null || missing+=("$m")
done
for f in modules.dep modules.alias modules.softdep; do [ -s "$mdir/$f" ] || missing+=("$f"); done
nko=$(find "$mdir" -name '*.ko' | wc -l)
ndep=$(grep -c . "$mdir/modules.dep" 2>/dev/null)
if [ ${#missing[@]} = 0 ] && [ "$nko" = "$ndep" ]; then
	ok modules
else
	fail modules "missing from the image: ${missing[*]:-none}; $nko .ko files, $ndep in modules.dep"
fi

# modules-pristine: the sums straight from the pinned package, as its recipe names it.
deb=dl/$(sed -n 's/^source=//p' recipes/linux/recipe)
dpkg-deb --fsys-tarfile "$deb" 2>/dev/null |
	tar -x --wildcards "./lib/modules/$KREL/kernel/*.ko" \
		--to-command='printf "%s %s\n" "${TAR_FILENAME##*/}" "$(sha256sum | cut -d" " -f1)"' > "$TMP/deb.sums"
differ=() same=0
while IFS= read -r -d '' ko; do
	want=$(awk -v n="${ko##*/}" '$1 == n { print $2; exit }' "$TMP/deb.sums")
	if [ -n "$want" ] && [ "$(sum "$ko")" = "$want" ]; then same=$((same + 1)); else differ+=("${ko##*/}"); fi
done < <(find "$mdir" "$TMP/root/lib/modules-boot" -name '*.ko' -print0 2>/dev/null)
state=$(awk '$1 == "kernel-modules" { print $4 }' "$TMP/root/etc/fsmatrix/MANIFEST" 2>/dev/null)
if [ ! -s "$TMP/deb.sums" ]; then
	fail modules-pristine "unable to read the modules' sums from $deb"
elif [ ${#differ[@]} = 0 ] && [ "$same" -gt 0 ] && [ "$state" = pristine ]; then
	ok "modules-pristine ($same modules byte-identical to $(basename "$deb"))"
else
	fail modules-pristine "${#differ[@]} modules differ from the package's ($same the same); the MANIFEST says '${state:-nothing}'" "${differ[@]:0:5}"
fi

# module-ftrace, module-orc: the qemu rewrite, built into a scratch folder.
qdir=$TMP/qemu-modules
MODULES_REWRITE=qemu KO_NOP_FENTRY=build/ko-nop-fentry \
	recipes/linux/closure "build/linux/dest/lib/modules/$KREL" recipes/linux/modules.list "$qdir" > "$TMP/qemu.log" 2>&1
qmods=$qdir/lib/modules/$KREL
# no module keeps a call to __fentry__ or its __mcount_loc list: the closure made each call
# the NOP the kernel would have made it (init/pack/kofentry.h), so the kernel has no call
# site to convert and look up at each load.
live=() nopped=0 orc=() signed=() nko=0
while IFS= read -r -d '' ko; do
	nko=$((nko + 1))
	rel=$(readelf -SrW "$ko" 2>/dev/null)
	grep -q ' __mcount_loc ' <<<"$rel" && live+=("${ko##*/}: __mcount_loc")
	grep -qE 'R_X86_64_(PLT|PC)32 +[0-9a-f]+ __fentry__' <<<"$rel" && live+=("${ko##*/}: call __fentry__")
	grep -qE 'R_X86_64_NONE +[0-9a-f]+ __fentry__' <<<"$rel" && nopped=$((nopped + 1))
	grep -qE ' \.orc_unwind(_ip)? ' <<<"$rel" && orc+=("${ko##*/}")
	tail -c 28 "$ko" | grep -qa '~Module signature appended~' && signed+=("${ko##*/}")
done < <(find "$qmods" -name '*.ko' -print0 2>/dev/null)
qstate=$(cat "$qdir/modules-state" 2>/dev/null)
if [ ${#live[@]} = 0 ] && [ "$nopped" -gt 0 ] && [ "$qstate" = rewritten-qemu ]; then
	ok module-ftrace
else
	fail module-ftrace "${#live[@]} ftrace leftovers, $nopped modules rewritten, state '$qstate'" "${live[@]:0:5}" "$(tail -3 "$TMP/qemu.log")"
fi
if [ ${#orc[@]} = 0 ] && [ ${#signed[@]} = 0 ] && [ "$nko" -gt 0 ]; then
	ok module-orc
else
	fail module-orc "of $nko modules ${#orc[@]} keep .orc_unwind, ${#signed[@]} their signature" "${orc[@]:0:5}" "${signed[@]:0:5}"
fi

# manifest
bad=()
for r in recipes/*/recipe; do
	n=$(basename "$(dirname "$r")")
	grep -q "^input $n " out/MANIFEST || bad+=("no input line for $n")
done
while read -r _ path size hash; do
	[ -f "$path" ] || { bad+=("$path: missing"); continue; }
	[ "$(stat -c %s "$path")" = "$size" ] && [ "$(sum "$path")" = "$hash" ] || bad+=("$path: size or sha256 differs")
done < <(grep '^output ' out/MANIFEST)
grep -q '^output out/initramfs.img ' out/MANIFEST || bad+=("no output line for the image")
if [ ${#bad[@]} = 0 ]; then ok manifest; else fail manifest "${bad[0]}" "${bad[@]}"; fi

# fio: the image's own binary, run here (it is static, so the host runs it as the guest does).
fio_bin=$TMP/sqfs/bin/fio
[ -f "$fio_bin" ] || fio_bin=$TMP/root/bin/fio   # MODULES_IMAGE=plain
fio_ver=$("$fio_bin" --version 2>&1)
fio_missing=()
for e in libaio io_uring psync sync; do
	"$fio_bin" --enghelp 2>/dev/null | grep -qx "[[:space:]]*$e" || fio_missing+=("$e")
done
if [ "$fio_ver" = fio-3.33 ] && [ ${#fio_missing[@]} = 0 ]; then
	ok "fio ($fio_ver with libaio, io_uring, psync and sync)"
else
	fail fio "bin/fio --version said '$fio_ver'; engines missing: ${fio_missing[*]:-none}"
fi

# budget
size=$(stat -c %s "$IMG")
if [ "$size" -le $((10 * 1024 * 1024)) ]; then
	ok budget
else
	fail budget "$IMG is $size bytes, over the 10 MiB budget"
fi

# static: the image has no loader and no libraries, so every program must stand alone.
# static_problems ROOT: one "PATH: why" line per problem, then "binaries N".
static_problems() {
	local f desc rel n=0
	while IFS= read -r -d '' f; do
		# ELF magic only: scripts and data are not binaries.
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		desc=$(file -b "$f")
		case $desc in *relocatable*) continue ;; esac
		rel=/${f#"$1"/}
		n=$((n + 1))
		# file says "statically linked" (or "static-pie linked"); anything with an interpreter
		# or "dynamically linked" would need a loader and libraries the image does not have.
		case $desc in
		*"statically linked"* | *"static-pie linked"*) ;;
		*) echo "$rel: dynamically linked" ;;
		esac
		case $desc in
		*"not stripped"* | *"with debug_info"*) echo "$rel: not stripped" ;;
		esac
		# glibc leaves versioned symbol names (GLIBC_2.x) or its banner in what it links.
		if grep -q -a -e 'GLIBC_' -e 'GNU C Library' "$f"; then
			echo "$rel: contains glibc"
		fi
	done < <(find "$1" -type f -print0 | LC_ALL=C sort -z)
	echo "binaries $n"
}
simg=${FSM_TEST_INITRD:-$IMG}
missing=$(for t in file cpio gzip zstd xz; do command -v "$t" >/dev/null || printf ' %s' "$t"; done)
if [ -n "$missing" ]; then
	fail static "missing tools:$missing (make deps)"
elif [ ! -s "$simg" ]; then
	fail static "$simg is missing (make image)"
elif ! mkdir -p "$TMP/static" ||
	! (recipes/compress -d "$simg" 2>/dev/null | (cd "$TMP/static" && cpio -i -d --quiet --no-absolute-filenames 2>/dev/null)); then
	fail static "cannot unpack $simg as a compressed cpio (recipes/compress -d)"
elif [ -f "$TMP/static/lib/usr.sqfs" ] &&   # the programs in the squashfs count too
	! unsquashfs -q -n -f -d "$TMP/static/usr" "$TMP/static/lib/usr.sqfs" > /dev/null 2>&1; then
	fail static "cannot read lib/usr.sqfs of $simg (unsquashfs)"
else
	static_problems "$TMP/static" >"$TMP/static.log"
	nbin=$(sed -n 's/^binaries //p' "$TMP/static.log")
	mapfile -t problems < <(grep -v '^binaries ' "$TMP/static.log")
	if [ "$nbin" = 0 ]; then
		fail static "no ELF binaries found in $simg"
	elif [ ${#problems[@]} != 0 ]; then
		fail static "${#problems[@]} problems in $nbin programs" "${problems[@]:0:20}"
	else
		ok "static ($nbin programs static, stripped, without glibc)"
	fi
fi
