/* core/disk/devstate.h: a disk's own state as the device reports it, not as the kernel believes
 * it: identity (model, serial, firmware), the volatile write cache, and health (temperature
 * and error counters). The answers of the device's own commands are parsed here: ATA
 * IDENTIFY DEVICE and SMART READ DATA (through SAT's ATA PASS-THROUGH), SCSI INQUIRY, the
 * unit serial number VPD page, MODE SENSE's caching page, LOG SENSE's temperature and error
 * counter pages and sense data, NVMe Identify Controller and the SMART / health log.
 * cell/device.c sends the commands; the rules on what changed during a cell are here too.
 * Pure: buffers in, structs and JSON out. */
#ifndef FSM_DEVSTATE_H
#define FSM_DEVSTATE_H
#include <stddef.h>

struct jw;

/* How a disk is spoken to: ATA behind SAT (libata's sd, or a SAS HBA's firmware), SCSI,
 * NVMe, virtio-blk (the only state it has is its cache mode), or none of these. */
enum dev_kind { DEV_ATA, DEV_SCSI, DEV_NVME, DEV_VIRTIO, DEV_OTHER };
const char *dev_kind_name(enum dev_kind k);

/* A health counter: how it reads and how a change is judged. */
enum dev_counter_id {
	DC_REALLOCATED, DC_PENDING, DC_UDMA_CRC,                 /* ATA SMART raw values */
	DC_CRITICAL_WARNING, DC_MEDIA_ERRORS, DC_ERROR_LOG_ENTRIES, DC_THROTTLE_S, /* NVMe */
	DC_READ_UNCORRECTED, DC_WRITE_UNCORRECTED,               /* SCSI error counter pages */
	DC_COUNT,
};
struct dev_counter_row {
	const char *name;   /* the JSON key and the warning's word */
	int bits;           /* a bit field: a new bit set is the change, not a larger value */
};
extern const struct dev_counter_row dev_counters[DC_COUNT];

#define DEV_UNKNOWN (-1000000)   /* a temperature not reported */

struct dev_health {
	int read;                    /* 1: the device answered; 0: see why */
	char why[160];
	int temp_c, temp_warn_c;     /* DEV_UNKNOWN when not reported */
	long long counter[DC_COUNT]; /* -1 when not reported */
};

struct devstate {
	enum dev_kind kind;
	char model[48], serial[48], firmware[24];
	int ident_read;              /* identity came from the device */
	int wc_device;               /* the volatile write cache as the device says: 1, 0, -1 */
	int wc_supported;            /* 1 has one, 0 has none, -1 not known */
	char wc_why[160];            /* why wc_device is -1 */
	char wc_sysfs[24];           /* what the kernel believes (queue/write_cache), "" */
	struct dev_health health;
};

void devstate_init(struct devstate *d, enum dev_kind kind);
void dev_health_init(struct dev_health *h);

/* ATA: IDENTIFY DEVICE's 512 bytes (identity and write cache) and SMART READ DATA's
 * (temperature and the counters). -1 when the block is not a valid answer. */
int ata_identify_parse(const unsigned char *b, size_t n, struct devstate *d);
int ata_smart_parse(const unsigned char *b, size_t n, struct dev_health *h);

/* SCSI: standard INQUIRY (vendor, product, revision), the unit serial number page (0x80),
 * MODE SENSE(10)'s caching page (WCE), LOG SENSE's temperature page (0x0d) and the read
 * (0x03) and write (0x02) error counter pages (total uncorrected errors). */
int scsi_inquiry_parse(const unsigned char *b, size_t n, struct devstate *d,
		       char *vendor, size_t vlen);
int scsi_serial_parse(const unsigned char *b, size_t n, struct devstate *d);
int scsi_caching_parse(const unsigned char *b, size_t n, int *wce);
int scsi_log_temp_parse(const unsigned char *b, size_t n, struct dev_health *h);
int scsi_log_errors_parse(const unsigned char *b, size_t n, struct dev_health *h);
/* Sense data (fixed or descriptor format) as text: "ILLEGAL REQUEST, asc 0x20 ascq 0x00
 * (invalid command operation code)". */
void scsi_sense_text(const unsigned char *s, size_t n, char *out, size_t len);

/* NVMe: Identify Controller's 4096 bytes (identity, whether a volatile write cache exists,
 * the warning temperature) and the SMART / health log page's 512. */
int nvme_identify_parse(const unsigned char *b, size_t n, struct devstate *d);
int nvme_smart_parse(const unsigned char *b, size_t n, struct dev_health *h);

/* When a temperature at or past the device's own warning threshold is said: at every pair of
 * readings whose second is hot (a cell says it was measured hot, each time), or only where
 * it crossed, the first reading below (the report's gaps between cells, which would
 * otherwise repeat it at each gap of a disk that stays hot). */
enum dev_hot { DEV_HOT_EACH, DEV_HOT_CROSSED };

/* What changed between two readings of one disk's health that a user should be warned of:
 * an error counter that rose (a new bit for the critical warning), a temperature risen by
 * more than 10 C, or one at or past the device's own warning threshold (as hot says). when
 * says where the two readings were taken ("during the cell"; the report: "between cell 1
 * and cell 2"). Writes up to max lines of len bytes ("device: sdb: reallocated rose from 0
 * to 3 during the cell") and returns how many. */
int dev_health_changes(const char *name, const char *when, enum dev_hot hot,
		       const struct dev_health *before, const struct dev_health *after,
		       char (*out)[200], int max);
/* The write cache as the device says and as sysfs believes, when they disagree, as a
 * warning line; 0 when they agree or either is unknown. */
int dev_cache_disagrees(const char *name, const struct devstate *d, char *out, size_t len);

/* JSON: a health reading ({"temperature_c":..,"reallocated":..} or {"unavailable":why}),
 * and a whole state (identity, write_cache {device, sysfs, why}, health). */
void dev_health_json(struct jw *w, const struct dev_health *h);
void devstate_json(struct jw *w, const char *name, const struct devstate *d);
/* "on", "off" or NULL (unknown). */
const char *dev_wc_name(int wc);

#endif
