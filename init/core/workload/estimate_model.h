/* core/workload/estimate_model.h: the machine a run's time is estimated for: what a disk streams, what
 * each step costs. Its own header so that the workloads' estimate functions
 * (core/workload/workload_kinds.h) take it without the matrix's estimate (core/matrix/estimate.h). */
#ifndef FSM_ESTIMATE_MODEL_H
#define FSM_ESTIMATE_MODEL_H

/* MiB/s throughout; a rate a person gives in MB/s (10^6 bytes) is converted at the edge. */
struct estimate_model {
	double disk_bytes;       /* per test disk: resync, the filesystem's size */
	double write_mbps;       /* streaming writes through the filesystem, when disk_mbps = 0 */
	double smallfiles_mbps;  /* small files go slower: metadata, many syncs of inodes */
	double resync_mbps;      /* md resync/recovery per member, when disk_mbps = 0 */
	double create_s, mkfs_s, tune_s, mount_s, teardown_s, tar_s;
	double mem_bytes;        /* RAM, for sizes relative to it (core/workload/wlsize.h) */
	double disk_mbps;        /* one member's streaming rate; 0: the figures above */
	double sync_max_mbps;    /* md's sync_speed_max: the most a resync goes per member */
};

/* md's default /proc/sys/dev/raid/speed_limit_max: 200000 KiB/s per member. */
#define EST_SYNC_MAX_MBPS (200000.0 / 1024)

/* The figures measured under qemu TCG on a 2-core machine, on 1 GiB disks and 1 GiB of
 * RAM (the nominal machine of core/workload/wlsize.h); disk_mbps 0. */
void estimate_model_default(struct estimate_model *m);

#endif
