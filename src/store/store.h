/*
 * store.h — the LMDB environment: transactions, key/value access, cursors.
 *
 * Design: one LMDB environment with five named databases:
 *   "items"   every item and index entry, keyed as store/key.h describes;
 *   "catalog" one record per table (store/catalog.h), keyed by table name;
 *   "meta"    counters (next resource id), backup records (store/backups.h),
 *             the Application Auto Scaling registry (ops/autoscaling.h),
 *             the capacity engine's partition layouts (jobs/tables.h),
 *             the format version and, with --data-dir, key "redo": u64
 *             little-endian, the last redo log group the file holds
 *             (store/redo.h);
 *   "streams" DynamoDB Streams' streams, shards and each shard's index of
 *             its change records, laid out by streams/streams.h;
 *   "records" the change records themselves, keyed by their sequence
 *             number, which only grows, so each is appended (MDB_APPEND);
 *             in memory mode not an LMDB database but an append-only log
 *             (store/memlog.h) behind the same calls, in the same
 *             transactions: a key must sort after the log's last (a put
 *             is an append; another key is an internal error), and the
 *             log and the map share the map's size (the log may take what
 *             the map leaves when a write begins);
 *   (a directory written before "streams" or "records" existed gets them
 *   empty: the layouts of the others are unchanged, so the format version
 *   is not bumped).
 *
 * Format version: key "format" of "meta", 4 bytes, little-endian, the
 * SL_STORE_FORMAT that wrote the directory (1: the key layout of
 * store/key.h, the item encoding of store/item.h, the catalog records of
 * store/catalog.h; 2: format 1 plus multi-attribute GSI keys, whose catalog
 * records carry "attrs" and whose index entries hold key tuples, backups
 * (store/backups.h) and the tables' point-in-time-recovery setting; 3:
 * format 2 plus change records that carry their stream and shard, indexed
 * in batches (streams/streams.h, "the index"); 4: format 3 plus the redo
 * log of a --data-dir, files redo.0 and redo.1 beside data.mdb and meta
 * "redo"; 5: format 4 with each shard's index of its records kept as runs,
 * one entry per shard per batch instead of one per record, streams/streams.h
 * "the index"). A format 1 directory is valid format 2 (single-attribute keys
 * encode identically), format 2 is valid format 3 (its records are all
 * indexed and still read), and format 3 is valid format 4 (a directory
 * without a log has nothing to replay), and format 4 becomes format 5 when
 * streams/streams.c opens it (its per-record index entries are rewritten as
 * runs, in one transaction, at every open that finds any), so
 * sl_store_open upgrades the record in place; an older sluice then refuses
 * the directory rather than misread tuple keys, crash on a record it does
 * not know, open a directory whose acknowledged writes are in a log it
 * would not replay, or find no index of a stream's records. sl_store_open refuses a
 * directory of any other format with a message naming both; a change to any of those layouts bumps
 * it (and brings a migration or the refusal). Pages: a new environment gets 32 KB pages
 * (SL_STORE_PAGE_SIZE, LMDB 0.9's largest), not the OS's 4 KB. Entries of about 1 KB fit at most
 * three to a 4 KB page and a split leaves two on each side, so ~1 KB items cost 2.1× their size in
 * the map; 32 KB pages hold 31 and fill like any B-tree's (about 70 %), about 1.57×
 * (bench/README.md, "Memory per item"). Items up to ~16 KB stay in the leaf instead of taking 4 KB
 * overflow pages of their own from 2 KB on. The cost is copying 32 KB instead of 4 KB per page a
 * write transaction dirties (about 1 µs a PutItem in memory), and tables of
 * 2-4 KB items that churn (deletes, shrinking updates) hold more than with 4
 * KB pages, whose overflow pages are fuller than half-empty leaves (both
 * measured in bench/README.md). LMDB reads
 * the page size of an existing file from its meta pages, so directories
 * written with 4 KB pages open as they are and keep them; the format
 * version does not change.
 * No LMDB type or code escapes this module (STYLE.md): callers see sl_txn,
 * sl_cursor and sl_err, and storage failures are translated here (map full →
 * SL_E_INTERNAL_SERVER_ERROR "storage is full", a handled, reported error).
 *
 * Modes:
 *  - in memory (data_dir NULL): LMDB opens a file in a fresh temporary
 *    directory (on /dev/shm when it exists), unlinked right after opening,
 *    so nothing is left behind even after kill -9; no locking, no fsync,
 *    MDB_WRITEMAP. The map is at most the free space of that file system at
 *    open (half the RAM for a default /dev/shm), so that filling it is the
 *    handled "storage is full" error, not the memory running out.
 *    Memory mode: right after the open, the map becomes private anonymous
 *    memory, at the same address and with the same bytes, and the file is
 *    emptied. With MDB_WRITEMAP, MDB_NOSYNC and MDB_NOMETASYNC, LMDB 0.9
 *    reads and writes an open environment only through its map (pages and
 *    meta pages; the descriptor serves the open and msync, which these flags
 *    skip), so nothing else changes for it. The memory asks for transparent
 *    huge pages (madvise), which a tmpfs file gets only when its mount says
 *    so (Debian's does not): a page fault costs ~10 µs on this VM whatever
 *    the page's size, and the file's 4 KB pages took one in every request
 *    that wrote a fresh page (0.2-0.4 faults a PutItem at 32 connections),
 *    where 2 MB pages take one per ~2,000 PutItems (bench/README.md, "The
 *    map in anonymous memory"). The map is named SL_STORE_MAP_NAME in
 *    /proc/PID/smaps, so tools still tell the table data from the heap.
 *    When the memory is refused (strict overcommit), the file's map stays.
 *  - durable (data_dir set): an flock on DIR/lock keeps a second sluice
 *    off the same directory (LMDB's own lock file lets processes share an
 *    environment, and both would write the redo log). Group commit: the
 *    writes of the requests served between two syncs form one group, an
 *    LMDB transaction left open (the pending parent) of which each write
 *    transaction is a nested child: a request's commit merges its child into
 *    the group, its abort drops only its own changes, and the group reaches
 *    the file (one top-level commit, MDB_NOSYNC: written, not synced) when a
 *    sync begins (sl_store_sync_begin). A read begun while a group is open is
 *    served inside the group's transaction (a read sees every commit before
 *    it, and the file does not hold the group's yet), so reads between the
 *    writes of a group do not write it to the file either: the B-tree's path
 *    pages, the free list and the meta page are written once per group
 *    instead of once per write, or once per read that follows a write. Such a
 *    read must end before the next write begins (LMDB: a transaction with a
 *    live child serves only the child; asserted). A commit marks the store
 *    dirty, and the owner syncs (sl_store_sync, or
 *    sl_store_sync_begin / _run / _end with the fsync on a libuv pool thread
 *    while the loop serves the next requests) before it answers any request
 *    that saw it (net/server.h sl_server_set_barrier), so one fsync
 *    acknowledges many concurrent writes and no answer precedes the sync of
 *    what it reports; any answer given while the store is dirty or a sync is
 *    under way waits too. The fsync is not the LMDB file's: every change a
 *    write makes is also an op of the group's record in the redo log
 *    (store/redo.h; an abort drops its ops), appended when the sync begins,
 *    and the sync is the log's fdatasync, one contiguous append of about
 *    the bytes the group wrote instead of ~27 scattered 32 KB pages. The
 *    LMDB file is fsynced by checkpoints only: when a log file passes
 *    redo_limit (SL_STORE_REDO_LIMIT, 32 MB), it is synced, the other of the
 *    two files becomes current, and the checkpoint thread fsyncs the LMDB
 *    file; a log file is reused only after the checkpoint that followed its
 *    last group. Meta "redo" holds the last group the file committed, and
 *    sl_store_open replays every later group of the log onto the file and
 *    syncs it; sl_store_close leaves nothing to replay. kill -9 loses
 *    nothing acknowledged: a group that had not reached the log was answered
 *    to nobody. A failure of the group's top-level commit, of the log's
 *    write or fsync, or of a checkpoint ends the process (the answers are
 *    formed and cannot be told), so nothing unsynced is acknowledged.
 *    Power loss: an acknowledged write is in the fsynced log and replayed
 *    onto the file as of its last checkpoint; but with MDB_NOSYNC the file
 *    system may write the LMDB file's pages in any order between
 *    checkpoints, so a system crash can leave that file unreadable on a file
 *    system that does not keep write order (LMDB's own caveat for
 *    MDB_NOSYNC), which the log cannot repair.
 *
 * Transactions: one write transaction at a time (the loop thread runs one
 * request at a time). Read transactions reuse one handle (reset/renew), or,
 * durable, the open group's (above), so a read-only request costs no
 * allocation. Slices returned by get/cursors point
 * into the map and are valid until the transaction ends (STYLE.md: decode
 * into the arena first).
 *
 * Prefaulting: in memory mode a thread of store/prefault.h keeps the map's
 * pages past LMDB's last page present, so that a write transaction that
 * grows the map does not take the first-write faults itself (with huge
 * pages: the zeroing of 2 MB, 0.1-3 ms on this VM). With a pretouch
 * (sl_store_config.pretouch, `--pretouch`) the map's first bytes are made
 * present at the open, before the server listens (prefault.h, "Pretouch"),
 * and the "records" log takes its chunks from the top of those LMDB does
 * not use yet (store.c, donate: pages moved by mremap, before a write
 * begins), so stream records take no first touch either.
 *
 * Ownership: sl_store_open's caller owns the store and calls sl_store_close.
 * Threads: the loop thread only (the prefaulter's thread touches pages of the
 * map past LMDB's last page, nothing else; sl_store_sync_run runs on any
 * thread; the checkpoint thread only fsyncs the LMDB file).
 */
#ifndef SL_STORE_STORE_H
#define SL_STORE_STORE_H

#include "base/err.h"

typedef struct sl_store sl_store;
typedef struct sl_txn sl_txn;
typedef struct sl_cursor sl_cursor;

typedef enum {
  SL_DB_ITEMS = 0,
  SL_DB_CATALOG = 1,
  SL_DB_META = 2,
  SL_DB_STREAMS = 3,
  SL_DB_RECORDS = 4,
} sl_db;

/* One item change (store/items.h, the write funnel) and the change-capture
 * hook it calls; declared here, below items.h, because the store keeps the
 * hook. */
typedef struct sl_store_change sl_store_change;
typedef sl_err (*sl_store_capture_fn)(void *ctx, sl_txn *txn, const sl_store_change *c, sl_arena *a,
                                      sl_failure *f);
/* Registers the hook (one at a time; NULL removes it). */
void sl_store_set_capture(sl_store *st, sl_store_capture_fn fn, void *ctx);
/* Inside store/ only: the write funnel (items.c) calls the registered hook. */
sl_err sl__store_capture_call(sl_txn *txn, const sl_store_change *c, sl_arena *a, sl_failure *f);

#define SL_STORE_FORMAT 5u
#define SL_STORE_PAGE_SIZE 32768u

typedef struct {
  const char *data_dir; /* NULL: in memory */
  uint64_t map_size;    /* bytes of address space; default 64 GiB */
  uint64_t redo_limit;  /* durable: bytes of a redo log file before a checkpoint
                           (0: SL_STORE_REDO_LIMIT) */
  uint64_t pretouch;    /* in memory: bytes of the map made present at the open
                           (store/prefault.h, "Pretouch"; at most the map) */
} sl_store_config;
#define SL_STORE_REDO_LIMIT (32ull << 20)

sl_err sl_store_open(const sl_store_config *cfg, sl_failure *f, sl_store **out);
void sl_store_close(sl_store *st);
bool sl_store_durable(const sl_store *st);
/* The environment's page size: SL_STORE_PAGE_SIZE for one this sluice
 * created, whatever the directory was written with otherwise. */
unsigned sl_store_page_size(const sl_store *st);
/* Inside store/ (and its unit test): writes the meta pages of a new LMDB
 * environment file with the given page size; see "Pages" above. 0 or an
 * errno (EEXIST: the file exists, and keeps its own page size). */
int sl__store_preformat(const char *file, unsigned page_size, uint64_t map_size, unsigned flags);
/* Inside store/ (and its unit tests): the in-memory map's prefaulter
 * (store/prefault.h; NULL in durable mode or when it could not start) and
 * the bytes of the map LMDB uses (its last page's end). */
struct sl_prefault *sl__store_prefault(const sl_store *st);
uint64_t sl__store_map_used(sl_store *st);
/* Inside store/ (and its unit tests): whether the in-memory map is
 * anonymous memory ("Memory mode" above); false in durable mode. */
bool sl__store_map_anonymous(const sl_store *st);
/* The name of the in-memory map in /proc/PID/maps and smaps
 * ("[anon:sluice-storage]"), where the bench tools find its resident bytes. */
#define SL_STORE_MAP_NAME "sluice-storage"
/* Group commit (durable stores): whether some commit is not durable yet
 * (committed since the last sync began, or covered by a sync begun and not
 * ended), and the sync that makes every commit so far durable (one fsync).
 * Always false / a no-op in memory. sl_store_close syncs too. */
bool sl_store_dirty(const sl_store *st);
sl_err sl_store_sync(sl_store *st, sl_failure *f);
/* The same sync in three steps, so that the fsync can run on another thread
 * while the loop goes on committing (net/server.h's barrier):
 * sl_store_sync_begin (loop thread) takes the commits so far into a sync
 * and says whether there were any; sl_store_sync_run (any thread, once per
 * begin that returned true) is the fsync, 0 or an LMDB error; and
 * sl_store_sync_end (loop thread) with its result ends it. Commits made
 * after a begin wait for the next one. */
bool sl_store_sync_begin(sl_store *st);
int sl_store_sync_run(sl_store *st);
sl_err sl_store_sync_end(sl_store *st, int rc, sl_failure *f);

sl_err sl_store_begin(sl_store *st, bool write, sl_failure *f, sl_txn **out);
sl_err sl_store_commit(sl_txn *txn, sl_failure *f);
void sl_store_abort(sl_txn *txn);
bool sl_store_txn_writable(const sl_txn *txn);

/* Returns true and sets *val when 'key' exists. */
bool sl_store_get(sl_txn *txn, sl_db db, sl_str key, sl_str *val);
sl_err sl_store_put(sl_txn *txn, sl_db db, sl_str key, sl_str val, sl_failure *f);
/* A put of a key that sorts after every key of 'db' (LMDB's MDB_APPEND: no
 * search, and a full page stays full instead of being split in half); a key
 * that does not is put as sl_store_put would. */
sl_err sl_store_append(sl_txn *txn, sl_db db, sl_str key, sl_str val, sl_failure *f);
/* Deleting a missing key is not an error. */
sl_err sl_store_del(sl_txn *txn, sl_db db, sl_str key, sl_failure *f);
/* Deletes every key in [lo, hi); *n_out counts them (may be NULL). */
sl_err sl_store_del_range(sl_txn *txn, sl_db db, sl_str lo, sl_str hi, uint64_t *n_out,
                          sl_failure *f);
/* Deletes every key of 'db', freeing its pages whole (mdb_drop: the leaves
 * are not visited when they hold no overflow pages); the database stays. */
sl_err sl_store_empty(sl_txn *txn, sl_db db, sl_failure *f);

/* Cursors: positioned reads in key order. Each positioning call returns true
 * and sets key/val when it lands on an entry; after one that lands on
 * nothing, only a seek or sl_cursor_first places the cursor again (where
 * next and prev then go is LMDB's own, and memlog.h's differs). */
sl_cursor *sl_store_cursor(sl_txn *txn, sl_db db);
void sl_cursor_close(sl_cursor *c);
bool sl_cursor_seek(sl_cursor *c, sl_str key, sl_str *k, sl_str *v);             /* first >= key */
bool sl_cursor_seek_last_before(sl_cursor *c, sl_str key, sl_str *k, sl_str *v); /* last < key */
bool sl_cursor_first(sl_cursor *c, sl_str *k, sl_str *v);
bool sl_cursor_next(sl_cursor *c, sl_str *k, sl_str *v);
bool sl_cursor_prev(sl_cursor *c, sl_str *k, sl_str *v);

/* A fresh resource id (table or index), persisted in "meta". */
sl_err sl_store_next_id(sl_txn *txn, uint32_t *out, sl_failure *f);

#endif
