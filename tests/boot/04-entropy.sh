# 04-entropy: without a hardware random source (no virtio-rng, as under a lab scheduler's or
# a user's own qemu command line, or a machine without RDRAND) the kernel's random pool must
# still be ready within 5 s. Kernels 5.18+ generate entropy themselves (CPU jitter), but only
# inside a blocking getrandom(); a non-blocking poll waited a whole minute here.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"

need_image

boot norng --no-rng --timeout 300 --append fsmatrix.dry=1 --plan "$(dirname "$0")/smoke.ini"
expect_status "a dry run without virtio-rng completes" 0
check "qemu ran without a virtio-rng device" bash -c "! grep -q virtio-rng '$RUN/qemu.cmdline'"
expect_record "the random pool was ready within 5 s" \
	'select(.type == "header") | .boot.entropy_ms < 5000'
expect_no_console "no wait for the pool ran out" 'random pool is still not ready'
