/* core/workload/durable.h: the durability workload's promises. The workload writes records into a
 * set of files by appends, overwrites, creates and renames, syncs after each operation
 * (fsync or fdatasync, and the directory after a create or a rename, as fsync(2) asks), and
 * after each acknowledged sync marks the point in the dm-log-writes log (fsm.N, N the
 * operations acknowledged). Which operation comes N-th, where it lands and what it writes
 * are functions of the seed and N alone, so what mark fsm.N promised is the model after N
 * operations, rebuilt at will: the verifier of a replayed filesystem needs no list kept.
 *
 * A record fills one 4 KiB slot of its file (written whole, at a slot boundary): a 32-byte
 * header (magic "FSMD", the file's number, the operation's sequence number, the payload's
 * length, the slot, a CRC-32 of the header's first 24 bytes and the payload), the payload
 * (seeded pseudo-random bytes, 256 bytes to the slot's end), zeros after it. A slot read back
 * is present (magic, sequence number, file and slot as promised), whole (its length within
 * the slot and the bytes there) and its checksum right, or it is lost (absent, zeros, an
 * older record) or torn (present but not whole or not right). Pure. */
#ifndef FSM_DURABLE_H
#define FSM_DURABLE_H
#include <stddef.h>
#include <stdint.h>

#define DUR_SLOT 4096
#define DUR_HDR 32
#define DUR_MAGIC 0x444d5346u       /* "FSMD" */
#define DUR_FILES_DEFAULT 4
#define DUR_FILES_MAX 64
#define DUR_OPS_MAX 1000000
#define DUR_NAME_MAX 24

enum dur_kind { DUR_APPEND, DUR_OVERWRITE, DUR_CREATE, DUR_RENAME, DUR_KINDS };
enum dur_sync { DUR_FDATASYNC, DUR_FSYNC };
extern const char *const dur_kind_names[DUR_KINDS];

/* The operations in turn, one row each: what the N-th is is row (N - 1) % DUR_CYCLE. */
struct dur_row {
	enum dur_kind kind;
	enum dur_sync sync;
};
#define DUR_CYCLE 8
extern const struct dur_row dur_cycle[DUR_CYCLE];

struct dur_file {
	char name[DUR_NAME_MAX];
	uint64_t *seq;              /* the record each slot holds, by sequence number */
	uint32_t nslots, cap;
};

struct dur_model {
	uint64_t seed;
	unsigned nbase;             /* d0 ... d(nbase-1): the files made before the first mark */
	uint64_t ops;               /* operations applied */
	size_t nfiles, cap;
	struct dur_file *f;
};

/* One operation as the engine performs it. */
struct dur_op {
	uint64_t seq;               /* 1, 2, ... */
	enum dur_kind kind;
	enum dur_sync sync;
	size_t file;                /* the model's file it lands in (its record's file number) */
	uint32_t slot;              /* the slot it writes */
	char tmp[DUR_NAME_MAX];     /* rename: the file written first and renamed, else "" */
	int dir_sync;               /* create, rename: the directory is fsynced after */
};

/* The model before the first operation: files base files, empty. 0, or -1 (memory). */
int dur_model_init(struct dur_model *m, unsigned files, uint64_t seed);
void dur_model_free(struct dur_model *m);
/* The next operation, into op, applied to the model. 0, or -1 (memory). */
int dur_next(struct dur_model *m, struct dur_op *op);
/* The model after ops operations, from nothing: what fsm.ops promised. 0, or -1. */
int dur_model_at(struct dur_model *m, unsigned files, uint64_t seed, uint64_t ops);
/* The records the model holds, every slot of every file. */
uint64_t dur_model_records(const struct dur_model *m);

/* The slot (DUR_SLOT bytes) of record seq in file number file at slot. */
void dur_record(uint64_t seed, uint64_t seq, uint32_t file, uint32_t slot, unsigned char *buf);

enum dur_verdict { DUR_OK, DUR_LOST, DUR_TORN };
extern const char *const dur_verdict_names[3];
/* What n bytes read at a slot (n below DUR_SLOT: the file ends inside it) say of the record
 * promised there; *found gets the sequence number the slot holds (0 when it holds no
 * record of this file and slot). */
enum dur_verdict dur_check(const unsigned char *buf, size_t n, uint64_t seq, uint32_t file,
			   uint32_t slot, uint64_t *found);

/* What a verification found. */
struct dur_tally {
	uint64_t records, ok, lost, torn, files_missing;
	char first[160];            /* the first record lost or torn, for the record */
};

#endif
