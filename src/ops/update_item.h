/*
 * update_item.h — UpdateItem's core, typed (the JSON side is
 * actions/update_item.c): read the old item in one write transaction,
 * evaluate the condition, apply the update purely (ops/conds.h: the update
 * applied to the old item, or to an item of just the key when there is none;
 * number overflow and 400 KB checked on the result), choose the ReturnValues
 * item (UPDATED_OLD / UPDATED_NEW: exactly the updated paths, nested), plan,
 * price (a failed condition is priced by the old item standing in for the
 * one the request would have written: facts §2.2), admit, apply, commit.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_UPDATE_ITEM_H
#define SL_OPS_UPDATE_ITEM_H

#include "ops/conds.h"
#include "ops/write.h"

typedef enum {
  SL_RV_NONE = 0,
  SL_RV_ALL_OLD,
  SL_RV_UPDATED_OLD,
  SL_RV_ALL_NEW,
  SL_RV_UPDATED_NEW,
} sl_return_values;

typedef struct {
  sl_table *t;
  sl_keyvals kv;       /* checked against the table's key schema */
  sl_write_exprs *ex;  /* update and condition */
  sl_return_values rv; /* ReturnValues */
  bool preview;        /* priced and checked, not written (ops/write.h) */
} sl_update_item_in;

typedef struct {
  sl_write_plan plan;
  sl_write_result res;
} sl_update_item_out;

sl_err sl_update_item(sl_req *req, const sl_update_item_in *in, sl_update_item_out *out);

#endif
