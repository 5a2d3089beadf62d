/*
 * PutItem — creates or replaces one item.
 * Pinned by tests/conformance/test_put_item.py and test_item_size.py.
 *
 * Request: TableName, Item, ReturnValues (NONE | ALL_OLD),
 * ReturnConsumedCapacity, ReturnItemCollectionMetrics, plus the condition
 * members handled by the expression layer.
 * Order of checks (the service's): table exists, item values and keys,
 * ReturnValues, then the write itself: read the old item, apply, price,
 * admit, commit.
 */
#include "api/write.h"

/* apply: the new item replaces whatever was there. */
static const sl_item *apply(const sl_item *item, const sl_item *old) {
  (void)old;
  return item;
}

sl_err sl_action_put_item(sl_req *req) {
  sl_table *t;
  sl_item item, old;
  sl_keyvals kv;
  sl_txn *txn = NULL;
  bool found;
  sl_write_plan plan;
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Item"), &item);
  if (err != SL_OK)
    return err;
  if ((err = sl_req_table(req, "TableName", SL_LOOKUP_DATA, &t)) != SL_OK)
    return err;
  if ((err = sl_req_check_item(req, t, &item, &kv)) != SL_OK)
    return err;
  sl_str rv = sl_req_str(req->body, "ReturnValues");
  if (rv.len && !sl_str_eq_c(rv, "NONE") && !sl_str_eq_c(rv, "ALL_OLD"))
    return sl_fail(req, SL_E_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
  sl_rcc rcc = sl_req_rcc(req->body);

  if ((err = sl_store_begin(req->app->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  if ((err = sl_store_item_get(txn, t, &kv, req->arena, &old, &found, NULL)) != SL_OK)
    goto out;
  const sl_item *next = apply(&item, found ? &old : NULL);
  sl_write_plan_init(req, &plan, t, &kv, found ? &old : NULL, next);
  sl_write_plan_price(req, &plan, false, false);
  if ((err = sl_req_admit(req, plan.charges, plan.n_charges)) != SL_OK)
    goto out;
  if ((err = sl_write_plan_apply(req, txn, &plan)) != SL_OK)
    goto out;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  if (found && sl_str_eq_c(rv, "ALL_OLD")) {
    sl_jw_key_c(w, "Attributes");
    sl_item_write_json(w, &old);
  }
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = {.table_name = sl_req_str(req->body, "TableName")};
    sl_write_plan_consumed(&plan, &c);
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_req_write_consumed(req, &c, rcc);
  }
  sl_jw_obj_end(w);
  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err == SL_OK)
    sl_write_plan_committed(req, &plan);
out:
  if (txn)
    sl_store_abort(txn);
  return err;
}
