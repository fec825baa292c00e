#!/bin/bash
# tests/media/run.sh: the boot menus agree, one line each as tests/run expects ("ok -
# media/NAME" or "FAIL - media/NAME: why"). Every boot path of the stick and of PXE must offer
# media/menu's entries with the same kernel command line and the same default: syslinux.cfg
# and EFI/BOOT/grub.cfg as read from out/fsmatrix-usb.img (with mtools), and
# pxelinux.cfg/default and grub/grub.cfg from out/pxe, each reduced to "NAME PARAMS" lines
# (the default first) and compared with media/menu's own.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export MTOOLS_SKIP_CHECK=1 MTOOLS_NO_VFAT=0
TIER=media
. "$ROOT/tests/tier.sh"

# media/menu: "NAME PARAMS", the first line the default.
awk -F'|' '/^[[:space:]]*(#|$)/ { next }
	{ for (i = 1; i <= 3; i++) gsub(/^[[:space:]]+|[[:space:]]+$/, "", $i); print $1 " " $3 }' \
	media/menu > "$TMP/menu"
# syslinux: DEFAULT's entry first, then every LABEL with its APPEND.
syslinux_entries() {
	tr -d '\r' | awk '$1 == "DEFAULT" { d = $2 } $1 == "LABEL" { l = $2 }
		$1 == "APPEND" && l != "" { sub(/^[[:space:]]*APPEND[[:space:]]+/, ""); p[l] = $0; o[++n] = l; l = "" }
		END { if (d in p) print d " " p[d]; for (i = 1; i <= n; i++) if (o[i] != d) print o[i] " " p[o[i]] }'
}
# grub: "set default=", every menuentry's --id with its linux line, less the kernel's path.
grub_entries() {
	tr -d '\r' | awk '/^set default=/ { d = substr($0, 13) } /^menuentry / { for (i = 1; i < NF; i++) if ($i == "--id") l = $(i + 1) }
		/^[[:space:]]*linux / && l != "" { sub(/^[[:space:]]*linux[[:space:]]+[^[:space:]]+[[:space:]]*/, ""); p[l] = $0; o[++n] = l; l = "" }
		END { if (d in p) print d " " p[d]; for (i = 1; i <= n; i++) if (o[i] != d) print o[i] " " p[o[i]] }'
}
# The menu's own order with the default first, as the readers print it.
{ head -1 "$TMP/menu"; tail -n +2 "$TMP/menu"; } > "$TMP/want"

agree() { # NAME KIND(syslinux|grub) COMMAND...: the entries of the config COMMAND prints
	local name=$1 kind=$2; shift 2
	if ! "$@" > "$TMP/$name.cfg" 2>"$TMP/$name.err" || [ ! -s "$TMP/$name.cfg" ]; then
		fail "$name" "unable to read it: $*" "$(head -3 "$TMP/$name.err")"
		return
	fi
	"${kind}_entries" < "$TMP/$name.cfg" > "$TMP/$name.got"
	if [ "$(wc -l < "$TMP/want")" -ge 3 ] && cmp -s "$TMP/want" "$TMP/$name.got"; then
		ok "$name ($(wc -l < "$TMP/want") entries, default $(head -1 "$TMP/want" | cut -d' ' -f1), as media/menu)"
	else
		fail "$name" "its entries differ from media/menu's" "$(diff "$TMP/want" "$TMP/$name.got" | head -8)"
	fi
}
part=out/fsmatrix-usb.img@@$((2048 * 512))
if [ -s out/fsmatrix-usb.img ]; then
	agree usb-syslinux syslinux mtype -t -i "$part" ::syslinux.cfg
	agree usb-grub grub mtype -t -i "$part" ::EFI/BOOT/grub.cfg
else
	fail usb "out/fsmatrix-usb.img is missing (make usb)"
fi
if [ -d out/pxe ]; then
	agree pxe-pxelinux syslinux cat out/pxe/pxelinux.cfg/default
	agree pxe-grub grub cat out/pxe/grub/grub.cfg
else
	fail pxe "out/pxe is missing (make pxe)"
fi

# make usb KERNELS="6.1 6.12": the kernel sets on the stick, byte for byte, where a plan with
# kernels = finds them (fsmatrix/kernels/NAME/); a set that is not there is one line, no stick.
if [ -s out/kernels/6.1/vmlinuz ] && [ -s out/kernels/6.12/initramfs.img ]; then
	USB_KERNEL_DIRS="out/kernels/6.1 out/kernels/6.12" media/usb "$TMP/k.img" out/vmlinuz \
		out/initramfs.img rootfs/plans/default.ini 2>"$TMP/k.err"
	bad=
	for k in 6.1 6.12; do
		for f in vmlinuz initramfs.img; do
			mcopy -n -i "$TMP/k.img@@$((2048 * 512))" "::fsmatrix/kernels/$k/$f" - 2>/dev/null |
				cmp -s - "out/kernels/$k/$f" || bad="$bad fsmatrix/kernels/$k/$f"
		done
	done
	if [ -z "$bad" ]; then ok "usb-kernels (both sets on the stick, byte for byte)"
	else fail usb-kernels "not the sets' bytes:$bad" "$(head -3 "$TMP/k.err")"; fi
	if USB_KERNEL_DIRS="out/kernels/none" media/usb "$TMP/n.img" out/vmlinuz out/initramfs.img \
		rootfs/plans/default.ini 2>"$TMP/n.err" || [ -e "$TMP/n.img" ] ||
		[ "$(wc -l < "$TMP/n.err")" != 1 ] || ! grep -q "KERNELS: unable to read out/kernels/none/vmlinuz" "$TMP/n.err"; then
		fail usb-kernels-missing "a missing set did not stop media/usb with one line" "$(head -3 "$TMP/n.err")"
	else
		ok "usb-kernels-missing ($(cat "$TMP/n.err"))"
	fi
else
	fail usb-kernels "out/kernels/6.1 and 6.12 are missing (make kernels)"
fi
