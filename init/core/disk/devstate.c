/* core/disk/devstate.c: parsing what a disk answers about itself, and judging what changed.
 * Offsets are those of ATA/ATAPI-8 ACS (IDENTIFY words, SMART attribute table), SPC-4
 * (INQUIRY, VPD 0x80, MODE SENSE(10), LOG SENSE parameters, sense data) and NVMe 1.4
 * (Identify Controller, SMART / Health Information log page 0x02). */
#include "core/disk/devstate.h"
#include "lib/ondisk.h"
#include "lib/record.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const struct dev_counter_row dev_counters[DC_COUNT] = {
	[DC_REALLOCATED] = { "reallocated", 0 },
	[DC_PENDING] = { "pending", 0 },
	[DC_UDMA_CRC] = { "udma_crc", 0 },
	[DC_CRITICAL_WARNING] = { "critical_warning", 1 },
	[DC_MEDIA_ERRORS] = { "media_errors", 0 },
	[DC_ERROR_LOG_ENTRIES] = { "error_log_entries", 0 },
	[DC_THROTTLE_S] = { "thermal_throttle_s", 0 },
	[DC_READ_UNCORRECTED] = { "read_uncorrected", 0 },
	[DC_WRITE_UNCORRECTED] = { "write_uncorrected", 0 },
};

const char *dev_kind_name(enum dev_kind k)
{
	static const char *const names[] = { "ata", "scsi", "nvme", "virtio", "other" };
	return k <= DEV_OTHER ? names[k] : "other";
}

const char *dev_wc_name(int wc)
{
	return wc == 1 ? "on" : wc == 0 ? "off" : NULL;
}

void dev_health_init(struct dev_health *h)
{
	memset(h, 0, sizeof *h);
	h->temp_c = h->temp_warn_c = DEV_UNKNOWN;
	for (int i = 0; i < DC_COUNT; i++)
		h->counter[i] = -1;
}

void devstate_init(struct devstate *d, enum dev_kind kind)
{
	memset(d, 0, sizeof *d);
	d->kind = kind;
	d->wc_device = d->wc_supported = -1;
	dev_health_init(&d->health);
}

/* ------------------------------------------------------------------ bytes */

/* Printable text of n bytes, blanks and NULs trimmed at both ends. */
static void text_of(const unsigned char *s, size_t n, char *out, size_t len)
{
	while (n && (*s == ' ' || *s == 0))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == 0))
		n--;
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < len; i++)
		out[k++] = s[i] >= ' ' && s[i] < 0x7f ? (char)s[i] : '?';
	out[k] = '\0';
}

/* An ATA string: words whose first character is the high byte. */
static void ata_string(const unsigned char *b, int word, int nwords, char *out, size_t len)
{
	unsigned char s[80];
	for (int i = 0; i < nwords && 2 * i + 1 < (int)sizeof s; i++) {
		s[2 * i] = b[2 * (word + i) + 1];
		s[2 * i + 1] = b[2 * (word + i)];
	}
	text_of(s, (size_t)nwords * 2, out, len);
}

/* ------------------------------------------------------------------ ATA */

int ata_identify_parse(const unsigned char *b, size_t n, struct devstate *d)
{
	if (n < 512 || le16(b) & 0x8000)   /* word 0 bit 15: not an ATA device */
		return -1;
	ata_string(b, 27, 20, d->model, sizeof d->model);
	ata_string(b, 10, 10, d->serial, sizeof d->serial);
	ata_string(b, 23, 4, d->firmware, sizeof d->firmware);
	if (!d->model[0])
		return -1;
	d->ident_read = 1;
	unsigned w82 = le16(b + 164), w85 = le16(b + 170);
	/* words 82-87 hold nothing when they read 0 or 0xffff */
	if (w82 == 0 || w82 == 0xffff) {
		d->wc_supported = -1;
		snprintf(d->wc_why, sizeof d->wc_why, "IDENTIFY word 82 is not valid");
		return 0;
	}
	d->wc_supported = (w82 >> 5) & 1;
	d->wc_device = d->wc_supported ? (int)((w85 >> 5) & 1) : 0;
	return 0;
}

int ata_smart_parse(const unsigned char *b, size_t n, struct dev_health *h)
{
	if (n < 512)
		return -1;
	unsigned sum = 0;
	for (int i = 0; i < 512; i++)
		sum += b[i];
	if (sum & 0xff) {
		snprintf(h->why, sizeof h->why, "SMART READ DATA: bad checksum");
		return -1;
	}
	int temp190 = DEV_UNKNOWN;
	for (int i = 0; i < 30; i++) {
		const unsigned char *a = b + 2 + 12 * i;
		unsigned long long raw = le_n(a + 5, 6);
		switch (a[0]) {
		case 5: h->counter[DC_REALLOCATED] = (long long)raw; break;
		case 197: h->counter[DC_PENDING] = (long long)raw; break;
		case 199: h->counter[DC_UDMA_CRC] = (long long)raw; break;
		case 194: h->temp_c = a[5]; break;     /* the current temperature is the low byte */
		case 190: temp190 = a[5]; break;       /* airflow temperature, on some drives only */
		default: break;
		}
	}
	if (h->temp_c == DEV_UNKNOWN)
		h->temp_c = temp190;
	h->read = 1;
	return 0;
}

/* ------------------------------------------------------------------ SCSI */

int scsi_inquiry_parse(const unsigned char *b, size_t n, struct devstate *d, char *vendor,
		       size_t vlen)
{
	if (n < 36)
		return -1;
	text_of(b + 8, 8, vendor, vlen);
	text_of(b + 16, 16, d->model, sizeof d->model);
	text_of(b + 32, 4, d->firmware, sizeof d->firmware);
	d->ident_read = d->model[0] != '\0';
	return d->ident_read ? 0 : -1;
}

int scsi_serial_parse(const unsigned char *b, size_t n, struct devstate *d)
{
	if (n < 4 || b[1] != 0x80)
		return -1;
	size_t len = be16(b + 2);
	if (len > n - 4)
		len = n - 4;
	text_of(b + 4, len, d->serial, sizeof d->serial);
	return 0;
}

int scsi_caching_parse(const unsigned char *b, size_t n, int *wce)
{
	if (n < 8)
		return -1;
	size_t page = 8 + be16(b + 6);     /* after the block descriptors */
	if (page + 3 > n || (b[page] & 0x3f) != 0x08)
		return -1;
	*wce = (b[page + 2] >> 2) & 1;
	return 0;
}

/* Calls fn for each parameter of a LOG SENSE page: its code, its value bytes. */
static int log_params(const unsigned char *b, size_t n, int page,
		      void (*fn)(unsigned code, const unsigned char *v, unsigned len, void *ctx),
		      void *ctx)
{
	if (n < 4 || (b[0] & 0x3f) != page)
		return -1;
	size_t end = 4 + be16(b + 2);
	if (end > n)
		end = n;
	for (size_t p = 4; p + 4 <= end;) {
		unsigned len = b[p + 3];
		if (p + 4 + len > end)
			break;
		fn(be16(b + p), b + p + 4, len, ctx);
		p += 4 + len;
	}
	return 0;
}

static void temp_param(unsigned code, const unsigned char *v, unsigned len, void *ctx)
{
	struct dev_health *h = ctx;
	/* value[1] in C, 0xff when the device does not know */
	if (len < 2 || v[1] == 0xff)
		return;
	if (code == 0)
		h->temp_c = v[1];
	else if (code == 1)
		h->temp_warn_c = v[1];   /* the reference temperature: the most it is rated for */
}

int scsi_log_temp_parse(const unsigned char *b, size_t n, struct dev_health *h)
{
	return log_params(b, n, 0x0d, temp_param, h);
}

struct err_ctx {
	struct dev_health *h;
	int id;
};

static void error_param(unsigned code, const unsigned char *v, unsigned len, void *ctx)
{
	struct err_ctx *e = ctx;
	if (code == 0x0006 && len >= 1 && len <= 8)   /* total uncorrected errors */
		e->h->counter[e->id] = (long long)be_n(v, (int)len);
}

int scsi_log_errors_parse(const unsigned char *b, size_t n, struct dev_health *h)
{
	if (n < 1)
		return -1;
	int page = b[0] & 0x3f;
	if (page != 0x02 && page != 0x03)
		return -1;
	struct err_ctx e = { h, page == 0x02 ? DC_WRITE_UNCORRECTED : DC_READ_UNCORRECTED };
	return log_params(b, n, page, error_param, &e);
}

void scsi_sense_text(const unsigned char *s, size_t n, char *out, size_t len)
{
	static const char *const keys[16] = {
		"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR", "HARDWARE ERROR",
		"ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT", "BLANK CHECK", "VENDOR SPECIFIC",
		"COPY ABORTED", "ABORTED COMMAND", "key 0xc", "VOLUME OVERFLOW", "MISCOMPARE",
		"key 0xf",
	};
	static const struct { unsigned char asc, ascq; const char *what; } ascs[] = {
		{ 0x20, 0x00, "invalid command operation code" },
		{ 0x24, 0x00, "invalid field in CDB" },
		{ 0x26, 0x00, "invalid field in parameter list" },
		{ 0x29, 0x00, "power on, reset or bus device reset occurred" },
		{ 0x2a, 0x01, "mode parameters changed" },
		{ 0x39, 0x00, "saving parameters not supported" },
		{ 0x3a, 0x00, "medium not present" },
	};
	unsigned code = n ? s[0] & 0x7fu : 0;
	if (n < 4 || code < 0x70 || code > 0x73) {
		snprintf(out, len, "no sense data");
		return;
	}
	int descriptor = code >= 0x72;
	unsigned key, asc, ascq;
	if (descriptor) {
		key = s[1] & 0x0f, asc = s[2], ascq = s[3];
	} else {
		if (n < 14) {
			snprintf(out, len, "%s", keys[s[2] & 0x0f]);
			return;
		}
		key = s[2] & 0x0f, asc = s[12], ascq = s[13];
	}
	const char *what = NULL;
	for (size_t i = 0; i < sizeof ascs / sizeof ascs[0]; i++)
		if (ascs[i].asc == asc && ascs[i].ascq == ascq)
			what = ascs[i].what;
	snprintf(out, len, "%s, asc 0x%02x ascq 0x%02x%s%s%s", keys[key], asc, ascq,
		 what ? " (" : "", what ? what : "", what ? ")" : "");
}

/* ------------------------------------------------------------------ NVMe */

static int kelvin_to_c(unsigned k)
{
	return k ? (int)k - 273 : DEV_UNKNOWN;
}

int nvme_identify_parse(const unsigned char *b, size_t n, struct devstate *d)
{
	if (n < 4096)
		return -1;
	text_of(b + 4, 20, d->serial, sizeof d->serial);
	text_of(b + 24, 40, d->model, sizeof d->model);
	text_of(b + 64, 8, d->firmware, sizeof d->firmware);
	if (!d->model[0])
		return -1;
	d->ident_read = 1;
	d->health.temp_warn_c = kelvin_to_c(le16(b + 266));   /* WCTEMP */
	d->wc_supported = b[525] & 1;                          /* VWC: one is present */
	if (!d->wc_supported)
		d->wc_device = 0;
	return 0;
}

int nvme_smart_parse(const unsigned char *b, size_t n, struct dev_health *h)
{
	if (n < 512)
		return -1;
	h->counter[DC_CRITICAL_WARNING] = b[0];
	h->temp_c = kelvin_to_c(le16(b + 1));
	/* 128-bit counters: the low 64 bits are more than any disk reaches */
	h->counter[DC_MEDIA_ERRORS] = (long long)(le_n(b + 160, 8) & 0x7fffffffffffffffULL);
	h->counter[DC_ERROR_LOG_ENTRIES] = (long long)(le_n(b + 176, 8) & 0x7fffffffffffffffULL);
	/* the seconds spent in thermal management at its two levels */
	h->counter[DC_THROTTLE_S] = (long long)(le_n(b + 228, 4) + le_n(b + 232, 4));
	h->read = 1;
	return 0;
}

/* ------------------------------------------------------------------ judging a cell */

static int is_hot(const struct dev_health *h)
{
	return h->temp_c != DEV_UNKNOWN && h->temp_warn_c != DEV_UNKNOWN && h->temp_warn_c > 0 &&
	       h->temp_c >= h->temp_warn_c;
}

int dev_health_changes(const char *name, const char *when, enum dev_hot hot,
		       const struct dev_health *before, const struct dev_health *after,
		       char (*out)[200], int max)
{
	int k = 0;
	if (before->read && !after->read && k < max)
		snprintf(out[k++], 200, "device: %s: health became unreadable %s: %.100s", name, when,
			 after->why);
	if (!before->read || !after->read)
		return k;
	for (int i = 0; i < DC_COUNT && k < max; i++) {
		long long b = before->counter[i], a = after->counter[i];
		if (b < 0 || a < 0)
			continue;
		if (dev_counters[i].bits && (a & ~b))
			snprintf(out[k++], 200, "device: %s: %s gained 0x%02llx %s (0x%02llx, was 0x%02llx)",
				 name, dev_counters[i].name, a & ~b, when, a, b);
		else if (!dev_counters[i].bits && a > b)
			snprintf(out[k++], 200, "device: %s: %s rose from %lld to %lld %s", name,
				 dev_counters[i].name, b, a, when);
	}
	int tb = before->temp_c, ta = after->temp_c;
	if (tb != DEV_UNKNOWN && ta != DEV_UNKNOWN && ta - tb > 10 && k < max)
		snprintf(out[k++], 200, "device: %s: temperature rose from %d C to %d C %s", name, tb,
			 ta, when);
	if (is_hot(after) && (hot == DEV_HOT_EACH || !is_hot(before)) && k < max)
		snprintf(out[k++], 200, "device: %s: temperature %d C at or past the device's warning "
			 "threshold of %d C", name, ta, after->temp_warn_c);
	return k;
}

int dev_cache_disagrees(const char *name, const struct devstate *d, char *out, size_t len)
{
	if (d->wc_device < 0 || !d->wc_sysfs[0])
		return 0;
	int sysfs_on = strcmp(d->wc_sysfs, "write back") == 0;
	if (sysfs_on == d->wc_device)
		return 0;
	snprintf(out, len, "device: %s: the device's write cache is %s, the kernel believes \"%s\"%s",
		 name, dev_wc_name(d->wc_device), d->wc_sysfs,
		 sysfs_on ? "" : ": it sends no flush, and writes the device holds in its cache "
		 "are not made durable by fsync");
	return 1;
}

/* ------------------------------------------------------------------ JSON */

void dev_health_json(struct jw *w, const struct dev_health *h)
{
	jw_obj(w);
	if (!h->read) {
		jw_kstr(w, "unavailable", h->why[0] ? h->why : "the device did not answer");
		jw_end_obj(w);
		return;
	}
	jw_key(w, "temperature_c");
	if (h->temp_c == DEV_UNKNOWN)
		jw_null(w);
	else
		jw_int(w, h->temp_c);
	if (h->temp_warn_c != DEV_UNKNOWN)
		jw_kint(w, "temperature_warn_c", h->temp_warn_c);
	for (int i = 0; i < DC_COUNT; i++)
		if (h->counter[i] >= 0)
			jw_kint(w, dev_counters[i].name, h->counter[i]);
	jw_end_obj(w);
}

void devstate_json(struct jw *w, const char *name, const struct devstate *d)
{
	jw_obj(w);
	jw_kstr(w, "name", name);
	jw_kstr(w, "kind", dev_kind_name(d->kind));
	/* null: the device did not say (virtio-blk has a serial and nothing else) */
	jw_kstr(w, "model", d->model[0] ? d->model : NULL);
	jw_kstr(w, "serial", d->serial[0] ? d->serial : NULL);
	jw_kstr(w, "firmware", d->firmware[0] ? d->firmware : NULL);
	jw_key(w, "write_cache");
	jw_obj(w);
	jw_kstr(w, "device", dev_wc_name(d->wc_device));
	jw_kstr(w, "sysfs", d->wc_sysfs[0] ? d->wc_sysfs : NULL);
	if (d->wc_device < 0)
		jw_kstr(w, "why", d->wc_why[0] ? d->wc_why : "not reported");
	jw_end_obj(w);
	jw_key(w, "health");
	dev_health_json(w, &d->health);
	jw_end_obj(w);
}
