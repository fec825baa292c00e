# qemu/lib/accel.sh: sourced by qemu/run (one file per job of it): the accelerator: KVM when it really runs a kernel, else TCG, and why (sets chosen, reason and the accelerator flags).
# shellcheck shell=bash

# A KVM probe: boot the kernel alone. With no initramfs and no root it ends in the "unable to
# mount root fs" panic, which only a kernel that really runs reaches; panic=-1 and -no-reboot
# then end qemu. Nested KVM here either asserts at once or hangs without a word.
PROBE_S=5
probe_kvm() {
	local log rc start end
	log=$(mktemp) || return 1
	start=$(date +%s.%N)
	timeout -k 1 "$PROBE_S" "$QEMU" -accel kvm -cpu "${cpu:-host}" -m 256M -nodefaults \
		-no-user-config -display none -no-reboot -kernel "$kernel" \
		-append "console=ttyS0 earlyprintk=ttyS0 panic=-1 loglevel=4" \
		-serial "file:$log" </dev/null >"$log.err" 2>&1
	rc=$?
	end=$(date +%s.%N)
	if grep -q 'Unable to mount root fs\|Kernel panic' "$log"; then
		probe_reason=$(awk -v s="$start" -v e="$end" \
			'BEGIN { printf "a KVM probe boot reached the end of kernel boot in %.1f s", e - s }')
		rm -f "$log" "$log.err"
		return 0
	fi
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		if grep -q 'Linux version' "$log"; then
			probe_reason="a KVM probe boot started the kernel but did not finish booting within ${PROBE_S} s"
		else
			probe_reason="a KVM probe boot printed no kernel banner within ${PROBE_S} s"
		fi
	else
		probe_reason="a KVM probe boot failed (qemu status $rc: $(grep -v '^$' "$log.err" | head -1 | cut -c1-120))"
	fi
	rm -f "$log" "$log.err"
	return 1
}

choose_accel() {
	case $accel in
	tcg) chosen=tcg reason="--accel tcg" ; return ;;
	kvm) chosen=kvm reason="--accel kvm" ; return ;;
	esac
	if [ ! -e /dev/kvm ]; then
		chosen=tcg reason="no /dev/kvm"; return
	fi
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		chosen=tcg reason="/dev/kvm is not readable and writable by $(id -un)"; return
	fi
	local cache=${FSM_ACCEL_CACHE:-$ROOT/out/.accel-probe} key line
	key="$("$QEMU" --version | head -1) | $(sha256sum <"$kernel" | cut -c1-16) | cpu=${cpu:-host}"
	if [ -r "$cache" ]; then
		line=$(grep -F -x -A1 "$key" "$cache" | tail -1)
		if [ "$(grep -F -x -c "$key" "$cache")" = 1 ] && [ -n "$line" ]; then
			chosen=${line%% *}
			reason="${line#* } (cached in ${cache#"$ROOT"/}; delete it to probe again)"
			return
		fi
	fi
	if probe_kvm; then chosen=kvm; else chosen=tcg; fi
	reason=$probe_reason
	# written aside, then renamed: a qemu/run of a boot test beside this one (tests/run --jobs)
	# must read the old verdict or the new one, never a file cut short
	mkdir -p "$(dirname "$cache")" && printf '%s\n%s %s\n' "$key" "$chosen" "$reason" >"$cache.$$" &&
		mv -f "$cache.$$" "$cache"
}
chosen= reason= probe_reason=
choose_accel
say "accelerator: $chosen ($reason)"
if [ "$chosen" = kvm ]; then cpu=${cpu:-host}; fi

# The kernel qemu starts itself: at its PVH entry when asked. OVMF's loader takes a bzImage
# only.
boot_kernel=$kernel
if [ -z "$boot_disk$pxe" ] && [ "$kernel_entry" = pvh ] && [ "$firmware" = bios ]; then
	if pvh=$("$ROOT/qemu/pvh-kernel" "$kernel" 2>&1); then
		boot_kernel=$pvh
	else
		say "kernel: started as a bzImage: ${pvh#qemu/pvh-kernel: }"
	fi
fi
