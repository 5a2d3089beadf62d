/*
 * delete_item.h — DeleteItem's core, typed (the JSON side is
 * actions/delete_item.c): the same steps as ops/put_item.h with no new item.
 * Cost: the deleted item's size rounded up to 1 KB; deleting nothing costs 1
 * unit; a failed condition costs too.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_DELETE_ITEM_H
#define SL_OPS_DELETE_ITEM_H

#include "ops/conds.h"
#include "ops/write.h"

typedef struct {
  sl_table *t;
  sl_keyvals kv; /* checked against the table's key schema */
  const sl_write_exprs *ex;
  bool return_old; /* ReturnValues ALL_OLD */
  bool preview;    /* priced and checked, not written (ops/write.h) */
} sl_delete_item_in;

typedef struct {
  sl_write_plan plan;
  sl_write_result res;
} sl_delete_item_out;

sl_err sl_delete_item(sl_req *req, const sl_delete_item_in *in, sl_delete_item_out *out);

#endif
