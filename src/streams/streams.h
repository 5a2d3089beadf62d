/*
 * streams.h — DynamoDB Streams: change records, shards, iterators and
 * retention, kept in the store's "streams" and "records" databases.
 *
 * Design: a stream is born when a table's stream is enabled (CreateTable or
 * UpdateTable with StreamSpecification) and is a new stream each time: its
 * ARN is the table's ARN + "/stream/" + its label (the ISO time of the
 * request, made unique per table by moving it on by a millisecond when two
 * enables share one). Disabling it, or deleting its table, closes it; its
 * records stay readable for the retention (24 h) and the stream is then
 * forgotten. Every change is made in the caller's write transaction
 * (sl_streams_sync, called where the table's catalog record is written), so
 * a failed control-plane request leaves no stream behind.
 *
 * Records: sl_streams_capture is the store's change-capture hook
 * (store/items.h): every item change of every writer (PutItem, UpdateItem,
 * DeleteItem, batches, transactions, TTL) passes through it inside the
 * writer's transaction, so a record is committed, or lost, with its item
 * change, and is durable with --data-dir like the item. A change that leaves
 * the item as it was (an identical PutItem, a no-op UpdateItem) writes no
 * record (facts §11). A table without a stream costs one flag test; with
 * one, the hook reads the stream from a small cache (streams.c) and reuses
 * the new item's encoding the funnel made (sl_store_change.item_enc).
 *
 * The index: each shard keeps an index of its records' numbers, as runs
 * ('N' below): a batch of records gives each shard one entry listing its
 * numbers in the batch, so the index costs a B-tree put per shard per batch
 * and trimming deletes whole runs, where an entry per record cost a put and
 * a delete per record (~0.3 and ~0.6 µs; bench/README.md, "Runs"). A run
 * that holds numbers on both sides of a shard's trim point stays until all
 * of them are trimmed; readers walk it from the trim point. The index is
 * written in batches, not by the hook: a record carries its stream and shard,
 * and the index mark ('I') says below which number every record is indexed.
 * sl_streams_index brings the index up to the last record, in a write
 * transaction of its own; every reader of shards calls it before its
 * snapshot (the Streams API's DescribeStream, GetShardIterator and
 * GetRecords, ops/streams.c; the admin pages, server/admin.c), and so do the
 * tick, before it closes or trims shards, once INDEX_BATCH (1,024) records
 * wait between its seconds, and sl_streams_sync, before it closes a stream's
 * shards. A write then costs its record alone: an index entry per write
 * dirtied a leaf of the "streams" database per shard, copied once per write
 * transaction in memory and written to the file once per group with
 * --data-dir (about 30 KB a write there; bench/README.md, "the index in
 * batches"). The records after the mark are durable with their items, so a
 * restart indexes them (tests/conformance/test_streams.py,
 * test_unindexed_records_survive_kill); a directory without the mark, new
 * or written when every record was indexed as it was made, gets it at open.
 * A directory of store format 4 or older has an entry per record ('R'):
 * sl_streams_open rewrites them as runs in one write transaction, and moves
 * a record held by its entry to "records" (tests/unit/streams/test_streams.c,
 * test_oldest_layout and test_format4_layout).
 *
 * Shards follow the capacity engine's partitions of the table (cap/cap.h,
 * sl_cap_part_ref): one open shard per partition, found by the 'P' route of
 * the partition's id. sl_streams_tick, once a second of the clock and at once
 * after a stream is made or the server starts, closes the shard of a
 * partition that split (its halves' shards name it as ParentShardId), of a
 * partition that is gone, or older than
 * shard_rollover_ms (default 4 h, facts §11's observed lifetime; the child is
 * the same partition's next shard). Between a split and the next tick the
 * halves have no route: their records go to the open shard whose range holds
 * the key, the split partition's, which the tick closes before the children
 * open, so each item's records stay in order along the lineage. Disabling
 * closes every open shard. Shards are numbered in creation order, so a parent
 * always comes before its children in DescribeStream.
 *
 * Across a restart: partition ids mean something within their layout's
 * epoch (cap.h), and the layout, ids and epoch survive a restart with
 * --data-dir (jobs/tables.h saves them before the tick that makes shards
 * follow them), so a table's stream comes back with the same shards, open
 * and closed, and every iterator and sequence number still reads. A shard
 * whose partition is not in the table's layout (another epoch: a directory
 * of an earlier sluice, or a layout that could not be restored) is closed,
 * and the new shards' parent is the closed one whose key range held their
 * first key (tests/conformance/test_streams.py, test_restart_keeps_shards).
 *
 * Sequence numbers: one counter for the whole server, so they increase in
 * commit order (one write transaction at a time) across every shard and
 * stream; written as 21-digit decimal strings (the model's minimum length).
 * The counter is recovered at open from the highest record of every shard
 * and the high-water mark "Q", written whenever records are trimmed or a
 * shard is opened, so numbers never go back, even after every record of a
 * stream has been trimmed.
 *
 * Layout of the "streams" database (integers little-endian unless marked BE;
 * big-endian key parts keep LMDB's order):
 *
 *   key 'S' | table name | 0x00 | label        a stream
 *     0  u8   format (1)
 *     1  u8   enabled (1) or disabled (0)
 *     2  u8   view type (sl_stream_view)
 *     3  u8   0
 *     4  u32  stream id (a store resource id; never reused)
 *     8  u32  the first partition's open shard number (while enabled)
 *    12  u32  shards made so far (numbers 0 .. n-1)
 *    16  u64  created_ms (CreationRequestDateTime)
 *    24  u64  disabled_ms (0 while enabled)
 *    32  u64  the open shard's created_ms
 *    40  u32  the table's storage id (a table of the same name made later
 *             has another)
 *    44  u8   hash key type, u8 range key type (0: none), u16 hash name
 *             length, u16 range name length, then the two names
 *   key 'H' | u32 BE stream id | u32 BE shard    a shard
 *     0  u32  parent shard number + 1 (0: none)
 *     4  u32  random tag (the shard id's last 8 hex digits)
 *     8  u64  created_ms
 *    16  u64  starting sequence number
 *    24  u64  ending sequence number (when closed)
 *    32  u64  closed_ms (0: open)
 *    40  u64  trim point: records below it have been trimmed (0: none)
 *    48  u32  partition id (cap/cap.h; 0 for a table without capacity
 *             resources), u32 0
 *    56  u64  the partition's first partition-key hash
 *    64  u64  the epoch of the partition layout the id belongs to (cap.h;
 *             1 for a table without capacity resources)
 *   key 'P' | u32 BE stream id | u32 BE partition id   u32 its open shard
 *   key 'N' | u32 BE stream id | u32 BE shard | u64 BE first sequence number
 *        a run of a shard's index: the numbers of the shard's records in one
 *        batch, increasing, each a u32 little-endian offset from the first
 *        (the first's is 0); a shard's runs follow each other in number
 *        order, and a run spans at most 2^32 numbers
 *   key 'R' | u32 BE stream id | u32 BE shard | u64 BE sequence number
 *        store format 4 and older: one record's index entry, an empty value
 *        (the record in "records") or, before "records" existed, the record
 *        itself; rewritten as runs at open
 *   key 'Q'                                      u64 sequence high-water mark
 *   key 'I'                                      u64 the index mark (above)
 *   key 'T' | table name | 0x00 | label        a stream's own tags (TagResource
 *        on its ARN; absent: none): u32 count, then per tag u32 key length,
 *        the key, u32 value length, the value; deleted with the stream
 *
 * Layout of the "records" database: key u64 BE sequence number, value a
 * record. Sequence numbers only grow, so every record is appended at the end
 * (store.h sl_store_append): no search, and full pages stay full, where
 * records kept in their shards' key ranges split pages in half — on a table
 * of 4 partitions, one fresh page per two ~1 KB records instead of one per
 * three, and a fresh page is the largest part of a record's cost on a VM
 * where a page fault costs ~12 us (bench/README.md). In memory mode the
 * store keeps "records" in a log of its own (store/memlog.h), read and
 * written through the same calls: appending copies the record to the log's
 * tail, and trimming the oldest moves its head and gives whole chunks back
 * for reuse, with none of the B-tree's page copies, deletes or free list.
 *     0  u8   format (2; 1: written with its index entry, without the two
 *             fields at 16, which Keys then takes)
 *     1  u8   event: 1 INSERT, 2 MODIFY, 3 REMOVE
 *     2  u8   flags: bit 0 the change was the service's own (TTL)
 *     3  u8   images: bit 0 NewImage, bit 1 OldImage
 *     4  u32  SizeBytes
 *     8  u64  created_ms
 *    16  u32  stream id, u32 shard (the index entry the record needs)
 *    24  Keys, then NewImage and OldImage when present: each u32 length +
 *        the item encoding of store/item.h
 * Format 3 (memory mode, a stream with new images; "After images" below):
 * format 3, and image bit 2 "a before image kept for the link alone"; at 24
 * a u64 link, at 32 Keys, then the before image when kept (OldImage, or the
 * hidden one), never the NewImage. Format 4 ("an after image"): byte 0 4,
 * created_ms at 8, stream id at 16, at 32 one image; no shard indexes it.
 *
 * After images: in memory, a record of a NEW_IMAGE or NEW_AND_OLD_IMAGES
 * stream keeps the image before its change (whenever there is one) but not
 * the image after it, which is held already: by the item's next record, as
 * its before image, or, while there is none, by the table. A record of a
 * ~1 KB item was ~1.1 KB of fresh memory a write, which on this VM's
 * fresh pages cost more than the rest of the record (bench/README.md, "Six
 * pairs"); an INSERT's record is now its keys and header.
 *  - The links: a map, per stream and item key (the record's Keys bytes), of
 *    the item's latest record and the one before it. The capture hook
 *    writes the new record's number into the latest one's link, in place in
 *    the log (format 3, byte 24).
 *  - Aborts need no undo: sequence numbers are never reused, so a link or a
 *    map entry that names an aborted record names a number the log does not
 *    hold. A reader takes such a link for none (the table's item is then
 *    the one before the aborted change); the hook falls back to the entry's
 *    record before it, the latest committed one, and links that.
 *  - Reading (sl_streams_read): the linked entry's image, else the item in
 *    the table, read in the same snapshot and copied.
 *  - That holds while every change of an item writes a record. Disabling
 *    the stream (UpdateTable, DeleteTable, which disables before the items
 *    go) first copies the table's item of every key whose latest record has
 *    no link into the log (format 4), linked from that record and trimmed
 *    after it, since records are trimmed in number order.
 *  - Trimming a record drops its key's map entry once no record of the key
 *    is left, after the trim commits; an entry whose only record was a first
 *    write that aborted stays until the key is written again.
 *  - --data-dir keeps the full records (formats 1 and 2): durable with their
 *    items, read by any later sluice, and the map would not survive a
 *    restart. Tests: tests/unit/streams/test_streams.c,
 *    test_after_images_by_link; every records test of
 *    tests/conformance/test_streams.py runs in memory.
 *
 * Iterators (GetShardIterator, NextShardIterator) are text: "v2|" stream id
 * "|" shard "|" position (the next sequence number to read) "|" issued_ms
 * "|" reader (below) times 2, plus 1 for a NextShardIterator "|" CRC-32 of
 * what precedes it, in hex (v1, without the
 * reader, is no longer read: an iterator lives 15 minutes). They expire iterator_ttl_ms (15
 * min) after issue; a bad one is ValidationException "Invalid ShardIterator".
 *
 * Retention: sl_streams_tick (jobs/, on the clock) deletes records older
 * than retention_ms, moving each shard's trim point; closed shards whose
 * records are all gone, and disabled streams past retention, are deleted.
 * A tick trims at most 1,024 records (one short write transaction before a
 * request); one that used its whole budget runs again at the next call (the
 * next request, or 100 ms later) instead of a second of the clock later, so
 * trimming keeps pace with any write rate, and a server that has run past
 * the retention trims about one old record per new one, whose memory
 * (LMDB's pages, or memory mode's log chunks) new records then reuse
 * (tests/conformance/test_streams.py,
 * test_retention_trim_keeps_pace; bench/README.md, steady state).
 *
 * Ownership: sl_streams_open's caller owns the handle (sl_streams_close).
 * Threads: the loop thread.
 */
#ifndef SL_STREAMS_STREAMS_H
#define SL_STREAMS_STREAMS_H

#include "base/clock.h"
#include "base/json.h"
#include "cap/cap.h"
#include "store/catalog.h"
#include "store/items.h"
#include "store/schema.h"

typedef enum {
  SL_STREAM_KEYS_ONLY = 0,
  SL_STREAM_NEW_IMAGE = 1,
  SL_STREAM_OLD_IMAGE = 2,
  SL_STREAM_NEW_AND_OLD_IMAGES = 3,
} sl_stream_view;

typedef struct {
  int64_t retention_ms;       /* 24 h */
  int64_t iterator_ttl_ms;    /* 15 min */
  int64_t shard_rollover_ms;  /* 4 h */
  uint32_t readers_per_shard; /* 2: readers polling one shard at once (below), 1 to 4 */
  int64_t reader_window_ms;   /* 2 s: a reader polls "at once" within it */
} sl_streams_params;

typedef struct sl_streams sl_streams;

void sl_streams_params_default(sl_streams_params *p);
/* Opens the module over 'st' (recovering the sequence counter) and registers
 * its capture hook on the store. */
sl_err sl_streams_open(sl_store *st, sl_clock *clock, const sl_streams_params *p, sl_failure *f,
                       sl_streams **out);
void sl_streams_close(sl_streams *s);
const sl_streams_params *sl_streams_params_of(const sl_streams *s);

/* The view type named 'name', or -1. */
int sl_stream_view_parse(sl_str name);
const char *sl_stream_view_name(sl_stream_view v);

/* The store hook (store/store.h sl_store_capture_fn); 'ctx' is the sl_streams. */
sl_err sl_streams_capture(void *ctx, sl_txn *txn, const sl_store_change *c, sl_arena *a,
                          sl_failure *f);

/* Brings the streams of a table from version 'old' to 't' in 'txn' (either
 * may be NULL: a new table, a deleted one): a stream is created when 't' has
 * one enabled that 'old' did not (t->stream_label is moved on by a
 * millisecond while it names an existing stream), and the stream of 'old'
 * is closed when 't' no longer has it. */
sl_err sl_streams_sync(sl_streams *s, sl_txn *txn, const sl_table *old, sl_table *t, int64_t now_ms,
                       sl_failure *f);

/* ---- reading (any transaction) ---- */

typedef struct {
  uint32_t no;
  int64_t parent; /* -1: none */
  char id[48];    /* "shardId-<20 digits>-<8 hex>" */
  uint64_t created_ms, start_seq, end_seq, closed_ms, trim_seq;
  uint32_t partition; /* the capacity engine's partition id (cap/cap.h) */
  uint32_t tag;       /* the id's last 8 hex digits */
  uint64_t lo_hash;   /* the partition's first hash */
  uint64_t epoch;     /* the partition layout's (cap.h) whose ids it names */
} sl_stream_shard;

typedef struct {
  sl_str table_name;
  sl_str label;
  bool enabled;
  uint8_t view; /* sl_stream_view */
  uint32_t id;
  uint32_t table_id; /* the storage id of the table it was made for */
  uint32_t open_shard;
  uint32_t n_shards_made;
  uint64_t created_ms, disabled_ms;
  sl_key_schema key;
} sl_stream;

/* Every stream still kept, ordered by table name, newest first within a
 * table ('table' empty: all tables). */
void sl_streams_list(sl_txn *txn, sl_arena *a, sl_str table, sl_stream **out, size_t *n_out);
/* The stream of table 'name' labelled 'label'; false when there is none. */
bool sl_streams_get(sl_txn *txn, sl_arena *a, sl_str name, sl_str label, sl_stream *out);
/* The tags of the stream (name, label), in the order they were added, copied
 * into 'a'; and their replacement (n 0: none), in a write transaction. A
 * stream does not inherit its table's tags (DG "Using attribute-based access
 * control with DynamoDB Streams"). */
void sl_streams_tags(sl_txn *txn, sl_arena *a, sl_str name, sl_str label, sl_tag **out,
                     uint32_t *n_out);
sl_err sl_streams_set_tags(sl_txn *txn, sl_arena *a, sl_str name, sl_str label, const sl_tag *tags,
                           uint32_t n, sl_failure *f);
/* The shards of a stream still kept, in shard order (parents first). */
void sl_streams_shards(sl_txn *txn, sl_arena *a, const sl_stream *st, sl_stream_shard **out,
                       size_t *n_out);
/* The shard with id 'shard_id', or false. */
bool sl_streams_shard(sl_txn *txn, sl_arena *a, const sl_stream *st, sl_str shard_id,
                      sl_stream_shard *out);
/* The lowest and highest sequence numbers of the records a shard holds;
 * false when it holds none. */
bool sl_streams_shard_bounds(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh,
                             uint64_t *first, uint64_t *last);
/* The creation time of the oldest record the shards hold; false when they
 * hold none (one lookup per shard). */
bool sl_streams_oldest(sl_txn *txn, const sl_stream *st, const sl_stream_shard *shards, size_t n,
                       int64_t *created_ms);
/* Brings every shard's index up to the last record (streams.h, "the
 * index"), in a write transaction of its own when records wait; a reader of
 * shards calls it before its snapshot. */
sl_err sl_streams_index(sl_streams *s, sl_failure *f);
/* The sequence number the next record will get. */
uint64_t sl_streams_next_seq(const sl_streams *s);

/* Formats a sequence number as the service writes it (21+ digits). */
void sl_streams_seq_format(uint64_t seq, char out[32]);
/* Parses one; false when 's' is not a sequence number sluice could have
 * written. */
bool sl_streams_seq_parse(sl_str s, uint64_t *out);

/* ---- iterators ---- */

typedef struct {
  uint32_t stream_id;
  uint32_t shard;
  uint64_t pos; /* next sequence number to read */
  int64_t issued_ms;
  uint32_t reader; /* the reader (below) the iterator belongs to */
  bool chained;    /* a NextShardIterator (not GetShardIterator's) */
} sl_stream_iter;

sl_str sl_streams_iter_format(sl_arena *a, const sl_stream_iter *it);
bool sl_streams_iter_parse(sl_str s, sl_stream_iter *out);

/* ---- readers ----
 *
 * The service documents that no more than two processes should read one
 * shard at the same time, and that more can be throttled (DynamoDB DG,
 * "DynamoDB Streams"; the model's LimitExceededException). A reader is what
 * one GetShardIterator starts: its NextShardIterators carry its number, so a
 * process following them is one reader however fast it polls. A reader polls
 * once it makes a second GetRecords with a NextShardIterator within
 * reader_window_ms (one read of a shard to its end, a one-off look, never
 * counts nor is refused). A shard's readers are those polling within the
 * window; one more than readers_per_shard (at most 4) is refused (GetRecords'
 * LimitExceededException), until one of them has been quiet for the window.
 * The state is memory only (a restart forgets who was reading: for at most
 * one window a shard may then have one more poller; keeping it would cost a
 * write transaction per GetRecords), bounded: SL_STREAMS_READER_SLOTS
 * shards are tracked at once, a shard that finds its slot taken by another
 * forgets that one. Reader numbers start at a random one each run, so an
 * iterator of an earlier run (iterators survive a restart) is not taken for
 * one of a new reader's chain. */
#define SL_STREAMS_READER_SLOTS 256
/* readers_per_shard at most (`sluice serve --readers-per-shard`). */
#define SL_STREAMS_READERS_MAX 4
/* A new reader's number (never 0). */
uint32_t sl_streams_new_reader(sl_streams *s);
/* Whether the GetRecords of iterator 'it' may read now; counts the call when
 * it may. */
bool sl_streams_reader_admit(sl_streams *s, const sl_stream_iter *it, int64_t now_ms);
/* The stream with id 'id' (a linear search: iterators carry only the id). */
bool sl_streams_get_by_id(sl_txn *txn, sl_arena *a, uint32_t id, sl_stream *out);

/* ---- records ---- */

typedef struct {
  uint64_t seq;
  uint8_t event; /* 1 INSERT, 2 MODIFY, 3 REMOVE */
  bool service;  /* a TTL deletion */
  uint32_t size_bytes;
  int64_t created_ms;
  sl_item keys;
  bool has_new, has_old;
  sl_item new_image, old_image;
} sl_stream_record;

/* Reads up to 'limit' records of shard 'sh' from sequence number 'pos' on,
 * at most 'max_bytes' of SizeBytes (at least one record when any). *next_pos
 * is where the next read starts. 't' is the table of an enabled stream (its
 * id the stream's table_id), else NULL: memory mode reads the after images
 * of the stream's latest records from it ("After images"). */
void sl_streams_read(sl_txn *txn, sl_arena *a, const sl_stream *st, const sl_table *t,
                     const sl_stream_shard *sh, uint64_t pos, size_t limit, size_t max_bytes,
                     sl_stream_record **out, size_t *n_out, uint64_t *next_pos);
/* Writes one record as the service's Record object. */
void sl_streams_record_write_json(sl_jw *w, const sl_stream *st, const sl_stream_record *r,
                                  const char *region);

/* ---- readers (for the dashboard's lag; in memory only) ---- */

/* How far readers got in a shard: the furthest position any GetRecords
 * reached (the next sequence number it would read), when the last read was
 * and how many reads there were. Kept for at most SL_STREAMS_READERS shards
 * (the least recently read is forgotten first); lost on restart. */
#define SL_STREAMS_READERS 1024
typedef struct {
  uint32_t stream_id, shard;
  uint64_t pos;
  int64_t read_ms;
  uint64_t reads;
} sl_stream_reader;

/* A GetRecords of shard 'shard' of stream 'stream_id' that ended at
 * 'next_pos'. */
void sl_streams_note_read(sl_streams *s, uint32_t stream_id, uint32_t shard, uint64_t next_pos,
                          int64_t now_ms);
/* The readers' position in a shard; false when nobody read it (or it was
 * forgotten). */
bool sl_streams_reader(const sl_streams *s, uint32_t stream_id, uint32_t shard,
                       sl_stream_reader *out);

typedef struct {
  uint64_t n;                   /* records counted (at most the cap asked for) */
  bool capped;                  /* more records follow */
  int64_t oldest_ms, newest_ms; /* of the records counted; -1 when none */
} sl_stream_count;

/* Counts the records of shard 'sh' from sequence number 'pos' on, at most
 * 'cap' (keys and headers only, no image is decoded). */
sl_stream_count sl_streams_count(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh,
                                 uint64_t pos, uint64_t cap);
/* Counts the newest records of shard 'sh' made at 'since_ms' or later, at
 * most 'cap', newest first (records are made in clock order, so the walk
 * stops at the first older one; keys and headers only). */
sl_stream_count sl_streams_count_since(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh,
                                       int64_t since_ms, uint64_t cap);
/* The creation time of the newest record of a shard, -1 when it holds none. */
int64_t sl_streams_newest_ms(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh);

/* ---- retention ---- */

/* Once per second of the clock (jobs/): rolls over open shards older than
 * shard_rollover_ms, deletes records older than the retention, and shards
 * and streams past it; bounded work per call. Returns true when anything
 * changed. */
bool sl_streams_tick(sl_streams *s, sl_catalog *cat, int64_t now_ms, sl_failure *f);

#endif
