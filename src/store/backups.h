/*
 * backups.h — on-demand backups of a table (CreateBackup and friends): a
 * copy of the table's definition and items, kept in the same LMDB
 * environment.
 *
 * Design: a backup is one record in the "meta" database, key "bk" | backup
 * ARN, value a JSON document:
 *   {"arn", "name", "table": the source table's catalog record
 *   (store/catalog.h, as it was), "created_ms", "items_id", "item_count",
 *   "size_bytes"}
 * and a copy of the table's items under a storage id of its own
 * ('items_id', a fresh id from sl_store_next_id, so it never collides with a
 * table's or an index's): every key of the table's range with its 4-byte
 * resource id replaced, value unchanged. Index entries are not copied; a
 * restore rebuilds them through the write funnel (store/items.h). The record
 * and the copy are written in one write transaction, so a backup is the
 * table as of one committed state and exists whole or not at all; deleting
 * one removes both in one transaction. Backups outlive their table.
 *
 * Threads: the loop thread (inside the caller's write transaction).
 */
#ifndef SL_STORE_BACKUPS_H
#define SL_STORE_BACKUPS_H

#include "store/item.h"
#include "store/schema.h"
#include "store/store.h"

typedef struct {
  sl_str arn;
  sl_str name;
  sl_str table_record; /* the source table's catalog record */
  uint64_t created_ms;
  uint32_t items_id;
  uint64_t item_count, size_bytes;
} sl_backup;

/* Copies the items of 't' under b->items_id and writes the record of 'b'
 * (item_count and size_bytes are set from what was copied). */
sl_err sl_backup_create(sl_txn *txn, const sl_table *t, sl_backup *b, sl_arena *a, sl_failure *f);
/* The backup 'arn' names; *found false when there is none. Strings are
 * copied into 'a'. */
sl_err sl_backup_get(sl_txn *txn, sl_str arn, sl_arena *a, sl_backup *out, bool *found);
/* Every backup, in ARN order (copied into 'a'). */
sl_err sl_backup_list(sl_txn *txn, sl_arena *a, sl_backup **out, size_t *n_out);
/* Removes the record and the item copy. */
sl_err sl_backup_delete(sl_txn *txn, const sl_backup *b, sl_arena *a, sl_failure *f);

/* Calls 'fn' for each item of the backup's copy, in key order (the item is
 * decoded into 'a'); stops at the first error. */
typedef sl_err (*sl_backup_item_fn)(void *ctx, const sl_item *it);
sl_err sl_backup_items(sl_txn *txn, const sl_backup *b, sl_arena *a, sl_backup_item_fn fn,
                       void *ctx);

#endif
