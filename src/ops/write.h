/*
 * write.h — one item write, planned: what it costs, which capacity it needs,
 * and how it is applied. Shared by PutItem, UpdateItem, DeleteItem,
 * BatchWriteItem and TransactWriteItems so that the cost rules live in one
 * place (facts §2.2):
 *  - the table is charged the larger of the old and new item sizes, rounded
 *    up to 1 KB (a delete: the deleted item; nothing there: 1 unit);
 *  - every index whose entry changes is charged per facts §2: a new entry 1
 *    write of its size, a key change a delete plus a put, a removal 1 delete,
 *    a projected-attribute change 1 put; LSIs consume the table's capacity
 *    (reported under LocalSecondaryIndexes), GSIs their own;
 *  - transactional writes cost double.
 * A write whose condition failed still costs (the table part only).
 *
 * Item collections (facts §3): sl_write_plan_apply hands the change to the
 * store's write funnel (store/items.h), which keeps each collection's size
 * and refuses growth past item_collection_max_bytes with
 * ItemCollectionSizeLimitExceededException. ReturnItemCollectionMetrics SIZE
 * reports the collection with SizeEstimateRangeGB [n, n + 1], n the whole
 * gigabytes it holds (the
 * developer guide's example: [0.0, 1.0] for "between 0 and 1 gigabyte").
 *
 * Usage: sl_write_plan_init → sl_write_plan_price → sl_req_admit(plan charges)
 * → sl_write_plan_apply (in the write transaction) → commit →
 * sl_write_plan_committed.
 */
#ifndef SL_OPS_WRITE_H
#define SL_OPS_WRITE_H

#include "ops/req.h"

typedef struct {
  sl_table *t;
  const sl_item *old;  /* current item, NULL if absent */
  const sl_item *item; /* new item, NULL for a delete */
  sl_keyvals kv;       /* the item's table key */
  /* priced */
  int64_t table_mu; /* table + LSI units charged to the table resource */
  int64_t table_only_mu;
  int64_t index_mu[SL_MAX_INDEXES];
  sl_index_change changes[SL_MAX_INDEXES];
  sl_cap_charge charges[1 + SL_MAX_INDEXES];
  size_t n_charges;
  /* The cost preview (set after sl_write_plan_init): sl_write_plan_finish
   * prices and checks, never debits, applies or fails the condition. */
  bool preview;
  /* applied, tables with LSIs only */
  bool has_collection;
  int64_t collection_bytes; /* the item collection's size after the write */
} sl_write_plan;

/* Begins the write transaction of a single-item write and reads the current
 * item: *oldp is 'old' when it exists, NULL otherwise. On failure nothing is
 * left open. */
sl_err sl_write_begin(sl_req *req, const sl_table *t, const sl_keyvals *kv, sl_txn **txn,
                      sl_item *old, const sl_item **oldp);

/* 'kv' must be the table key of 'item' (or of 'old' for a delete). */
void sl_write_plan_init(sl_req *req, sl_write_plan *p, sl_table *t, const sl_keyvals *kv,
                        const sl_item *old, const sl_item *item);
/* Computes costs and capacity charges. 'condition_failed': only the table
 * part is charged (sized by the new item, or 1 unit when there was no item). */
void sl_write_plan_price(sl_req *req, sl_write_plan *p, bool transactional, bool condition_failed);
/* Adds the plan's units to a ConsumedCapacity record. */
void sl_write_plan_consumed(const sl_write_plan *p, sl_consumed *c);
/* Writes the item and its index entries in 'txn'. */
sl_err sl_write_plan_apply(sl_req *req, sl_txn *txn, sl_write_plan *p);
/* After commit: counters and the capacity engine's stored bytes. */
void sl_write_plan_committed(sl_req *req, sl_write_plan *p);

/* What a single-item write leaves for its reply. */
typedef struct {
  sl_item attributes;   /* the ReturnValues item; n == 0: none */
  sl_consumed consumed; /* the write's units, table and indexes (no TableName) */
  /* preview only: what running it now would meet */
  bool cond_failed;    /* the condition would fail (the units are still charged) */
  bool would_throttle; /* the admission check would refuse it now */
  uint64_t old_bytes;  /* the item there now (0: none) */
  uint64_t new_bytes;  /* the item written (0: a delete, or nothing changes) */
} sl_write_result;

/* The end every single-item write shares (ops/put_item.h, update_item.h,
 * delete_item.h), once the old item is read, the condition evaluated
 * ('cond_ok') and the plan priced: admit the plan (a throttle wins over a
 * failed condition, and a failed condition still costs: facts §2.2, and
 * out->consumed reports it), fail the condition, apply, commit and account,
 * and fill 'out' ('attrs' becomes its attributes). A preview plan is only
 * checked (out->would_throttle, out->cond_failed, out->consumed) and its
 * transaction aborted: SL_OK, nothing written. Always ends 'txn'. 'cond' and 'old' serve
 * ConditionalCheckFailedException's Item. */
struct sl_write_exprs;
sl_err sl_write_plan_finish(sl_req *req, sl_txn *txn, sl_write_plan *p, bool cond_ok,
                            const struct sl_write_exprs *cond, const sl_item *old,
                            const sl_item *attrs, sl_write_result *out);

#endif
