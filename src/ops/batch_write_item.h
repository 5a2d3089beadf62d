/*
 * batch_write_item.h — BatchWriteItem's core, typed (the JSON side and the
 * request checks are actions/batch_write_item.c).
 *
 * In one write transaction: each request's old item is read, its write
 * planned and priced exactly as PutItem / DeleteItem do (ops/write.h), and
 * admitted on its own, in request order (capacity-model.md §3). Admitted
 * writes are applied through the store's write funnel and committed once;
 * throttled ones are left unprocessed. Only when every write is throttled
 * does the call fail, with the exception of the first throttle, writing
 * nothing. Each table's ConsumedCapacity counts its admitted writes.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_BATCH_WRITE_ITEM_H
#define SL_OPS_BATCH_WRITE_ITEM_H

#include "ops/write.h"

#define SL_BATCH_WRITE_MAX 25

typedef struct {
  sl_str given;       /* the RequestItems key: a name or an ARN */
  sl_table *t;        /* resolved by the checks */
  bool any_throttled; /* some request of this table is unprocessed (core) */
  sl_consumed consumed;
} sl_bw_table;

typedef struct {
  const sl_json *value; /* the Item or Key as sent (UnprocessedItems) */
  bool put;
  uint32_t table; /* index into the tables */
  sl_item item;   /* a put's Item, a delete's Key */
  sl_keyvals kv;
  sl_str key; /* storage key: duplicate detection */
  /* the core */
  sl_write_plan plan;
  bool admitted;
} sl_bw_request;

sl_err sl_batch_write_item(sl_req *req, sl_bw_request *reqs, uint32_t n, sl_bw_table *tables);

#endif
