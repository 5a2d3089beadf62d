/*
 * items.h — items of a table in LMDB, with their index entries.
 *
 * Design: the action layer reads the old item, computes the new one with a
 * pure apply, prices and admits it, and then calls sl_store_item_put or
 * sl_store_item_delete inside the same write transaction. These functions
 * write the base item and maintain every index entry (LSI and GSI) in that
 * transaction, so an item and its index entries can never disagree.
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
#include "store/schema.h"
#include "store/store.h"

typedef struct {
  const sl_av *hash;
  const sl_av *range; /* NULL when the schema has no sort key */
} sl_keyvals;

/* The key attribute values of 'it' under schema 'k'; false when one is
 * missing or has another type than the schema's (no entry for an index). */
bool sl_item_keyvals(const sl_item *it, const sl_key_schema *k, sl_keyvals *out);

/* Encodes the storage key of a table item. */
void sl_store_item_key(sl_buf *b, const sl_table *t, const sl_keyvals *kv);

/* Reads an item; *found tells whether it exists. The item is decoded into 'a';
 * in a read transaction it points into the map (valid until the transaction
 * ends), in a write transaction it is copied (the write may reuse the page). *size_out (may
 * be NULL) gets its DynamoDB size. */
sl_err sl_store_item_get(sl_txn *txn, const sl_table *t, const sl_keyvals *kv, sl_arena *a,
                         sl_item *out, bool *found, size_t *size_out);

/* Writes 'item' over 'old' (the current version read in this transaction,
 * NULL if none), maintaining all index entries. */
sl_err sl_store_item_put(sl_txn *txn, const sl_table *t, const sl_item *old, const sl_item *item,
                         sl_arena *a, sl_failure *f);
/* Deletes 'old' and its index entries. */
sl_err sl_store_item_delete(sl_txn *txn, const sl_table *t, const sl_item *old, sl_arena *a,
                            sl_failure *f);

/* After commit: applies the change old -> new (either may be NULL) to the
 * table's and indexes' ItemCount and size counters. */
void sl_store_item_account(sl_table *t, const sl_item *old, const sl_item *item, sl_arena *a);

/* The number of entries of a resource (table or index id) and the sum of
 * their item sizes: ItemCount and TableSizeBytes / IndexSizeBytes. */
void sl_store_resource_count(sl_txn *txn, uint32_t id, uint64_t *n_out, uint64_t *bytes_out);

/* The entry 'it' projects into index 'x', or false when the item is not in
 * the index (sparse). */
bool sl_index_project(sl_arena *a, const sl_table *t, const sl_index *x, const sl_item *it,
                      sl_item *out);

/* What a write does to one index: the facts §2 index write costs follow from
 * it (new entry: 1 put; key change: delete + put; removal: 1 delete; a
 * projected attribute change: 1 put; nothing: 0). */
typedef struct {
  bool had;                  /* an entry existed before */
  bool has;                  /* an entry exists after */
  bool key_changed;          /* both exist but under different keys */
  bool changed;              /* both exist and the entry's content differs */
  size_t old_size, new_size; /* entry sizes (index keys + projection) */
  sl_keyvals new_key;        /* index key of the new entry (for partition lookup) */
  sl_keyvals old_key;
} sl_index_change;

/* Fills one sl_index_change per index of 't' (out[i] for t->indexes[i]). */
void sl_store_index_changes(sl_arena *a, const sl_table *t, const sl_item *old, const sl_item *item,
                            sl_index_change *out);

#endif
