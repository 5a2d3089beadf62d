/*
 * items.h — items of a table in LMDB, with their index entries.
 *
 * Design: the write funnel. A writer (ops/write.c for every API write,
 * batches and transactions included; jobs/ttl.c for expiry) reads the old
 * item, computes the new one with a pure apply, prices and admits it, and
 * then calls sl_store_apply inside the same write transaction: the one
 * function that changes items. It sees the old and the new image together
 * and, in that transaction, checks and keeps the item collection counter
 * (tables with LSIs, below), writes or deletes the base item, maintains every
 * index entry (LSI and GSI), and last calls the change-capture hook, so an
 * item, its index entries, its collection size and whatever the hook records
 * (DynamoDB Streams' change records) can never disagree, and no writer can
 * change an item without the hook seeing it. The GSI backfill
 * (jobs/backfill.c) writes index entries of items that do not change, and no
 * other code writes the "items" database.
 *
 * Change capture: sl_store_set_capture registers one function, called by
 * sl_store_apply after the item and its index entries are written, with the
 * change (old and new image, table) and the transaction; an error it returns
 * (storage full) fails the change and the writer aborts the transaction.
 * DynamoDB Streams (streams/streams.h) attaches here.
 *
 * Item collections (facts §3): on a table with LSIs, all items of one
 * partition key plus their LSI entries form an item collection of at most
 * collection_max bytes (item_collection_max_bytes, 10 GB). sl_store_apply
 * keeps each collection's size in a counter record of the "meta" database
 * (key "ic" | table id | partition key component; 8 bytes, little-endian),
 * in the same transaction as the write, and refuses a change that would grow
 * a collection past the limit with ItemCollectionSizeLimitExceededException
 * ("Collection size exceeded."); changes that shrink it always pass. A
 * counter missing (a collection written before counters existed) is
 * computed once by reading the collection. Counters of a deleted table are
 * left behind (table ids are never reused).
 * Runtime counters (ItemCount, TableSizeBytes, IndexSizeBytes) are updated
 * only after the commit, with sl_store_item_account, so an aborted request
 * leaves them untouched.
 *
 * Index entries: key per store/key.h (index keys, then table keys); value =
 * the projected item (keys, plus INCLUDE attributes, or everything for ALL),
 * in the binary item encoding. An item lacking an index key attribute has no
 * entry (sparse index).
 *
 * Threads: the loop thread.
 */
#ifndef SL_STORE_ITEMS_H
#define SL_STORE_ITEMS_H

#include "store/item.h"
#include "store/project.h"
#include "store/schema.h"
#include "store/store.h"

/* Encodes the storage key of a table item. */
void sl_store_item_key(sl_buf *b, const sl_table *t, const sl_keyvals *kv);

/* Reads an item; *found tells whether it exists. The item is decoded into 'a';
 * in a read transaction it points into the map (valid until the transaction
 * ends), in a write transaction it is copied (the write may reuse the page). *size_out (may
 * be NULL) gets its DynamoDB size. */
sl_err sl_store_item_get(sl_txn *txn, const sl_table *t, const sl_keyvals *kv, sl_arena *a,
                         sl_item *out, bool *found, size_t *size_out);

/* One item change: 'old' (the current version read in this transaction,
 * NULL if none) becomes 'item' (NULL: deleted). */
struct sl_store_change {
  const sl_table *t;
  const sl_keyvals *key; /* the item's table key (of 'item', or of 'old' for a delete) */
  const sl_item *old;
  const sl_item *item;
  int64_t collection_max; /* the item collection limit in bytes; 0: none */
  bool by_service;        /* the service's own change (a TTL deletion), not a request's */
  /* out, for the change-capture hook: the new item's encoding (store/item.h)
   * as written, in the arena, when the table has a stream; else empty */
  sl_str item_enc;
  /* out, tables with LSIs only */
  bool has_collection;
  int64_t collection_bytes; /* the item collection's size after the change */
};

/* The change-capture hook (see above) is registered with sl_store_set_capture
 * (store/store.h, where its type is declared). */

/* The write funnel: applies 'c' in 'txn' (collection counter, item, index
 * entries, capture hook). */
sl_err sl_store_apply(sl_txn *txn, sl_store_change *c, sl_arena *a, sl_failure *f);

/* Bytes an item adds to its item collection: its size plus its LSI entries
 * (0 for NULL). */
int64_t sl_store_collection_share(sl_arena *a, const sl_table *t, const sl_item *it);

/* One item collection as its counter records it: the partition key value,
 * printable (S as is, N as text, B in base64; a value cut in the key,
 * longer than the key budget of store/key.h, ends in "…"), and its size. */
typedef struct {
  sl_str pk; /* in 'a' */
  int64_t bytes;
} sl_store_collection;

/* The largest item collections of table 't' (one with LSIs), largest first,
 * at most 'limit' (<= 64), read from the counters of at most 'scan_max'
 * collections; *n_seen: how many non-empty collections were read, *more:
 * whether counters were left unread. */
void sl_store_collections_top(sl_txn *txn, sl_arena *a, const sl_table *t, size_t limit,
                              size_t scan_max, sl_store_collection *out, size_t *n_out,
                              size_t *n_seen, bool *more);

/* After commit: applies the change old -> new (either may be NULL) to the
 * table's and indexes' ItemCount and size counters. */
void sl_store_item_account(sl_table *t, const sl_item *old, const sl_item *item, sl_arena *a);

/* The number of entries of a resource (table or index id) and the sum of
 * their item sizes: ItemCount and TableSizeBytes / IndexSizeBytes. */
void sl_store_resource_count(sl_txn *txn, uint32_t id, uint64_t *n_out, uint64_t *bytes_out);

#endif
