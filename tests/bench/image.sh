# image: out/initramfs.img against Debian's own initramfs-tools image for the same kernel.
# Debian's image is built as Debian builds it on a machine with that kernel installed: a
# scratch Debian root (debootstrap, minbase, with initramfs-tools and what it recommends:
# busybox, zstd), the kernel package's files unpacked into it, depmod, then mkinitramfs with
# initramfs-tools' default configuration (MODULES=most, COMPRESS=zstd), all inside chroot.
# The host's /boot and /lib/modules are never touched. The root is kept in build/bench/ and
# reused (its first build takes a few minutes of downloads from the Debian mirror).
# shellcheck shell=bash

# The first Debian mirror of the host's apt sources for SUITE (never written anywhere).
_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v suite="$1" 'BEGIN { RS = ""; FS = "\n" }
			$0 ~ ("Suites:[^\n]*[ \t]" suite "([ \t]|$)") || $0 ~ ("Suites:[ \t]*" suite "([ \t]|$)") {
				for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, u, /[ \t]+/); print u[2]; exit } }' "$f"
	done
	[ -f /etc/apt/sources.list ] &&
		awk -v suite="$1" '$1 == "deb" && $3 == suite { print $2; exit }' /etc/apt/sources.list
}

_unpacked_size() { # IMAGE: bytes of the cpio archive(s) inside, whatever the compressor
	local n
	n=$("$FSM_ROOT/recipes/compress" -d "$1" 2>/dev/null | wc -c)
	[ "$n" -gt 0 ] && echo "$n" || echo null
}

bench_image() {
	local ours=$FSM_ROOT/out/initramfs.img root=$BENCH_DIR/debian-root log=$BENCH_DIR/image.log
	local deb kver suite=bookworm mirror img=$BENCH_DIR/debian-initrd.img
	echo "== image: out/initramfs.img against Debian's initramfs-tools image"
	[ -s "$ours" ] || { unmeasured image_size_ratio "out/initramfs.img is missing (make image)"; return; }
	# the image's own kernel package, the one recipes/linux pins: dl/ holds other kernel sets'
	# packages too (make kernels KERNELS=6.1.0-47), and the first of them was measured instead
	deb=$FSM_ROOT/dl/$(sed -n 's/^source=//p' "$FSM_ROOT/recipes/linux/recipe")
	[ -s "$deb" ] || { unmeasured image_size_ratio "no kernel package in dl/ (the image was built with KERNEL=, so there is no Debian kernel to compare with)"; return; }
	kver=$(dpkg-deb -f "$deb" Package) kver=${kver#linux-image-}
	: >"$log"
	if [ ! -e "$root/.done" ]; then
		command -v debootstrap >/dev/null || { unmeasured image_size_ratio "debootstrap is not installed (make deps)"; return; }
		[ "$(id -u)" = 0 ] || { unmeasured image_size_ratio "building a Debian root needs root (chroot)"; return; }
		mirror=$(_mirror $suite | head -n 1)
		[ -n "$mirror" ] || { unmeasured image_size_ratio "no Debian $suite mirror in /etc/apt"; return; }
		note "building a scratch Debian $suite root in build/bench/debian-root (once; log: build/bench/image.log)"
		rm -rf "$root"
		if ! debootstrap --variant=minbase --include=initramfs-tools,busybox,zstd,linux-base \
			$suite "$root" "$mirror" >>"$log" 2>&1; then
			unmeasured image_size_ratio "debootstrap failed (build/bench/image.log: $(tail -n 1 "$log"))"
			return
		fi
		touch "$root/.done"
	fi
	# Unpacked beside the root, then copied in: extracted straight into it, the package's
	# lib/ directory would replace the merged-/usr symlink /lib -> usr/lib.
	rm -rf "${root:?}/usr/lib/modules/${kver:?}" "$root/boot"/*"$kver"* "$root/tmp/initrd.img" "$BENCH_DIR/kernel-deb"
	dpkg-deb -x "$deb" "$BENCH_DIR/kernel-deb" &&
		mkdir -p "$root/usr/lib/modules" &&
		cp -a "$BENCH_DIR/kernel-deb/lib/modules/$kver" "$root/usr/lib/modules/" &&
		cp -a "$BENCH_DIR/kernel-deb/boot/." "$root/boot/" &&
		rm -rf "$BENCH_DIR/kernel-deb" ||
		{ unmeasured image_size_ratio "unable to unpack $(basename "$deb") into the scratch root"; return; }
	# A private mount namespace: /proc inside the root goes away with it.
	if ! unshare --mount --propagation private env PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c '
		mount -t proc proc "$1/proc" &&
		chroot "$1" depmod "$2" &&
		chroot "$1" mkinitramfs -o /tmp/initrd.img "$2"' sh "$root" "$kver" >>"$log" 2>&1 ||
		[ ! -s "$root/tmp/initrd.img" ]; then
		unmeasured image_size_ratio "mkinitramfs failed in the scratch root (build/bench/image.log: $(tail -n 1 "$log"))"
		return
	fi
	mv "$root/tmp/initrd.img" "$img"
	local a b ua ub itv conf
	a=$(stat -c %s "$ours") b=$(stat -c %s "$img")
	ua=$(_unpacked_size "$ours") ub=$(_unpacked_size "$img")
	itv=$(chroot "$root" dpkg-query -W -f='${Version}' initramfs-tools 2>/dev/null)
	conf=$(grep -hE '^(MODULES|COMPRESS)=' "$root/etc/initramfs-tools/initramfs.conf" | tr '\n' ' ')
	figure image_size_ratio "$(jq -n --argjson a "$a" --argjson b "$b" --argjson ua "$ua" --argjson ub "$ub" \
		--arg kver "$kver" --arg itv "$itv" --arg conf "${conf% }" '
		{value: ($a / $b), goal: "as small as it can be (no fixed goal)",
		 ours: {file: "out/initramfs.img", bytes: $a, unpacked_bytes: $ua, compression: ($ENV.INITRAMFS_COMPRESS // "zstd")},
		 debian: {file: "build/bench/debian-initrd.img", bytes: $b, unpacked_bytes: $ub,
		          kernel: $kver, initramfs_tools: $itv, config: $conf},
		 unpacked_ratio: (if $ua == null or $ub == null then null else $ua / $ub end)}')"
	show image_size_ratio "$(fmt "$(jq -n "$a / $b")")  (ours $a bytes / Debian's $b bytes; unpacked $ua / $ub = $(fmt "$(jq -n "$ua / $ub")"))"
	note "Debian's: initramfs-tools $itv, ${conf% }, kernel $kver, in a scratch debootstrap root:"
	cmd "debootstrap --variant=minbase --include=initramfs-tools,busybox,zstd,linux-base $suite ROOT MIRROR"
	cmd "dpkg-deb -x dl/$(basename "$deb") KDIR && cp -a KDIR/lib/modules/$kver ROOT/usr/lib/modules/ && cp -a KDIR/boot/. ROOT/boot/"
	cmd "chroot ROOT depmod $kver && chroot ROOT mkinitramfs -o /tmp/initrd.img $kver"
	cmd "stat -c %s out/initramfs.img build/bench/debian-initrd.img"
}
