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
 * Usage: sl_write_plan_init → sl_write_plan_price → sl_req_admit(plan charges)
 * → sl_write_plan_apply (in the write transaction) → commit →
 * sl_write_plan_committed.
 */
#ifndef SL_API_WRITE_H
#define SL_API_WRITE_H

#include "api/req.h"

#define SL_MAX_INDEXES 25

typedef struct {
  sl_table *t;
  const sl_item *old;  /* current item, NULL if absent */
  const sl_item *item; /* new item, NULL for a delete */
  sl_keyvals kv;       /* the item's table key */
  sl_str sort_enc;     /* encoded sort key component (partition placement) */
  uint64_t hash;
  /* priced */
  int64_t table_mu; /* table + LSI units charged to the table resource */
  int64_t table_only_mu;
  int64_t index_mu[SL_MAX_INDEXES];
  sl_index_change changes[SL_MAX_INDEXES];
  sl_cap_charge charges[1 + SL_MAX_INDEXES];
  size_t n_charges;
} sl_write_plan;

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

#endif
