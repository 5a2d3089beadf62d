/*
 * put_item.h — PutItem's core, typed (the JSON side is actions/put_item.c):
 * read the old item in one write transaction, evaluate the condition, plan
 * and price the write (ops/write.h: a failed condition still costs), admit
 * it (a throttle wins over a failed condition), apply it through the store's
 * write funnel, commit.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_PUT_ITEM_H
#define SL_OPS_PUT_ITEM_H

#include "ops/conds.h"
#include "ops/write.h"

typedef struct {
  sl_table *t;
  const sl_item *item; /* checked against the table's schema and 400 KB */
  sl_keyvals kv;       /* its table key */
  const sl_write_exprs *ex;
  bool return_old; /* ReturnValues ALL_OLD */
  bool preview;    /* priced and checked, not written (ops/write.h) */
} sl_put_item_in;

typedef struct {
  sl_write_plan plan; /* ItemCollectionMetrics (tables with LSIs) */
  sl_write_result res;
} sl_put_item_out;

sl_err sl_put_item(sl_req *req, const sl_put_item_in *in, sl_put_item_out *out);

#endif
