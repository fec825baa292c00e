/* core/workload/estimate_model.c: the nominal machine's figures. Pure. */
#include "core/workload/estimate_model.h"
#include "core/workload/wlsize.h"

void estimate_model_default(struct estimate_model *m)
{
	/* Measured under qemu TCG on 2 cores: the steps of the default plan's 54 cells at scale
	 * 0.05 (boot/24-lava's records: mdadm about 30 ms a call, mkfs.ext4 0.28 s, mkfs.xfs
	 * 0.32 s, tune2fs 16 ms, mount 16 ms, umount 28 ms, a wipe 14 ms) and its streaming
	 * medians at scale 1 (92 to 321 MB/s, 2026-11-29), each rounded up with room to spare:
	 * the estimate sets LAVA jobs' timeouts, which should stop a hung machine soon. */
	m->disk_bytes = 1024.0 * 1024 * 1024;
	m->write_mbps = 80;
	m->smallfiles_mbps = 15;
	m->resync_mbps = 50;
	m->create_s = 0.4;
	m->mkfs_s = 0.4;
	m->tune_s = 0.05;
	m->mount_s = 0.3;      /* mount, sync and drop caches */
	m->teardown_s = 0.3;
	m->tar_s = 30;
	m->mem_bytes = (double)WLSIZE_NOMINAL_BYTES;
	m->disk_mbps = 0;
	m->sync_max_mbps = EST_SYNC_MAX_MBPS;
}
