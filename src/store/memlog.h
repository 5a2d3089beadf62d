/*
 * memlog.h — memory mode's "records" database: an append-only log in
 * memory instead of an LMDB B-tree.
 *
 * Why: the change records of DynamoDB Streams (streams/streams.h) are
 * appended in key order (their sequence numbers only grow) and trimmed from
 * the oldest (retention), the shape of a queue. In LMDB each record cost a
 * leaf write with its copy-on-write page, a B-tree delete at the trim, and a
 * free list of the trimmed pages carried through every later commit; a
 * server past the retention paid about 6.5 µs a record against 3.5 on its
 * first day (bench/README.md, "Where the stream's steady state goes"). Here
 * a record is one copy into the tail of a chunk, and a trim moves the head
 * past it: a chunk whose every record is gone goes back to a pool that the
 * next appends reuse, warm and present. With --data-dir the records stay in
 * LMDB, where they are durable with their items (store.h, "Modes").
 *
 * Entries: a key and a value, in strictly increasing key order (the order
 * of LMDB's default comparison: bytes, then length). An append whose key is
 * not after the last entry's is refused (sl_memlog_append returns
 * SL_MEMLOG_ORDER); a put of the store is an append. Each entry is 8-byte
 * aligned in a chunk: a u32 key length, a u32 value length, a u8 "deleted",
 * 7 bytes of padding, the key, the value. A directory of pointers to the
 * entries, in key order, is a ring that grows by doubling; a position is the
 * absolute index of an entry since the log was made, so a position stays
 * valid while older entries go. A lookup of an 8-byte key (a record's
 * number, big-endian) starts where the number falls between the first and
 * the last entries' and widens by doubling steps: a few probes, where a
 * binary search of a large log took ~20 cache misses; streams/ looks a
 * record up on every write it links (tests/unit/store/test_memlog.c,
 * test_lookup_by_number).
 *
 * Chunks: 2 MB of anonymous memory aligned to 2 MB, in 4 KB pages
 * (MADV_NOHUGEPAGE): a fresh chunk is touched page by page as records fill
 * it, where a huge page was zeroed whole by the record that first touched
 * it; measured, the stream cost 1.14x a PutItem's CPU with 4 KB pages and
 * 1.21x with huge pages (bench/stream_cost.py --seconds 4 --conns 32
 * --rounds 6, the two builds alternated; bench/README.md, "The records in a
 * log"). An entry larger than a chunk gets one of its own, a multiple of
 * 2 MB. With a pretouch, the store stocks the pool with
 * chunks of present memory taken from the map (sl_memlog_stock; store.h,
 * "Prefaulting"). Chunks are used in order; a chunk before the
 * first live entry's is released: to a pool of at most SL_MEMLOG_POOL
 * chunks that later appends take first, or back to the system. Bytes mapped
 * (pool included) are bounded by the limit given at creation: an append
 * past it returns SL_MEMLOG_FULL (the store's "storage is full").
 *
 * Transactions: the store's one write transaction at a time (store.h).
 * Appends are visible at once; a delete marks the entry deleted, and the
 * commit (sl_memlog_commit) removes the deleted entries at both ends of the
 * log and releases their chunks; an abort (sl_memlog_abort) drops the
 * entries appended and unmarks the entries deleted since sl_memlog_begin.
 * There is no snapshot: a read sees the log as it is (the store never runs a
 * read beside a write in memory mode). Slices returned point into a chunk,
 * and a chunk released while a read may hold slices (sl_memlog_commit's
 * 'reader_live') is kept until sl_memlog_quiesce, which the store calls
 * when the read ends.
 *
 * Ownership: sl_memlog_new's caller owns the log (sl_memlog_free).
 * Threads: the store's (the loop thread).
 * Tests: tests/unit/store/test_memlog.c; through the store,
 * tests/unit/store/test_store.c and tests/unit/streams/test_streams.c.
 */
#ifndef SL_STORE_MEMLOG_H
#define SL_STORE_MEMLOG_H

#include "base/str.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct sl_memlog sl_memlog;

/* Chunks kept for reuse at most (2 MB each). */
#define SL_MEMLOG_POOL 16
#define SL_MEMLOG_CHUNK (2u << 20)

enum { SL_MEMLOG_OK = 0, SL_MEMLOG_ORDER = 1, SL_MEMLOG_FULL = 2 };

/* A log of at most 'limit' bytes of chunks; 'name' names its chunks in
 * /proc/PID/maps when the kernel can ("[anon:NAME]"; NULL: unnamed). */
sl_memlog *sl_memlog_new(uint64_t limit, const char *name);
void sl_memlog_free(sl_memlog *l);
/* Moves the limit (the store gives the log what its map leaves). */
void sl_memlog_set_limit(sl_memlog *l, uint64_t limit);
/* Bytes of chunks mapped (in use or pooled), and live entries. */
uint64_t sl_memlog_bytes(const sl_memlog *l);
uint64_t sl_memlog_count(const sl_memlog *l);

/* ---- transactions ---- */
void sl_memlog_begin(sl_memlog *l);
void sl_memlog_commit(sl_memlog *l, bool reader_live);
void sl_memlog_abort(sl_memlog *l);
/* No read holds slices any more: chunks released meanwhile can be reused. */
void sl_memlog_quiesce(sl_memlog *l);

/* Whether the log would take a chunk for its pool: it holds entries and its
 * pool is empty (the store asks before a write begins). */
bool sl_memlog_wants(const sl_memlog *l);
/* Puts in the pool a chunk whose memory 'fill' provides: called with the
 * chunk's aligned, mapped address, it moves present pages there (store.c:
 * the pretouched map's unused top, "Pretouch" in store/prefault.h). False
 * when 'fill' or the limit refuses. */
bool sl_memlog_stock(sl_memlog *l, bool (*fill)(void *ctx, void *chunk), void *ctx);

/* ---- writing (between begin and commit or abort) ---- */
int sl_memlog_append(sl_memlog *l, sl_str key, sl_str val);
/* Marks deleted the entry of 'key' (none: nothing), or every entry in
 * [lo, hi); returns how many. */
uint64_t sl_memlog_del(sl_memlog *l, sl_str key);
uint64_t sl_memlog_del_range(sl_memlog *l, sl_str lo, sl_str hi);
uint64_t sl_memlog_empty(sl_memlog *l);

/* ---- reading ---- */
bool sl_memlog_get(const sl_memlog *l, sl_str key, sl_str *val);
/* Positions: [sl_memlog_first_pos, sl_memlog_end_pos) holds the entries,
 * live or deleted; sl_memlog_lower_bound is the first at or after 'key'. */
uint64_t sl_memlog_first_pos(const sl_memlog *l);
uint64_t sl_memlog_end_pos(const sl_memlog *l);
uint64_t sl_memlog_lower_bound(const sl_memlog *l, sl_str key);
/* From *pos, the first live entry going forward (dir 1) or backward (dir
 * -1), *pos moved to it; false when there is none that way (*pos left
 * unchanged). A position outside the entries finds nothing. */
bool sl_memlog_at(const sl_memlog *l, uint64_t *pos, int dir, sl_str *key, sl_str *val);

#endif
