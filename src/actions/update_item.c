/*
 * UpdateItem — edits one item in place, creating it when absent (upsert),
 * optionally under a condition.
 * Pinned by tests/conformance/test_update_item.py, test_update_expression.py
 * and test_condition_expression.py.
 *
 * Request: TableName, Key, UpdateExpression (or legacy AttributeUpdates),
 * ConditionExpression (or Expected), ExpressionAttributeNames/Values,
 * ReturnValues (NONE | ALL_OLD | UPDATED_OLD | ALL_NEW | UPDATED_NEW),
 * ReturnValuesOnConditionCheckFailure, ReturnConsumedCapacity,
 * ReturnItemCollectionMetrics.
 *
 * apply (api/conds.c, shared with TransactWriteItems): the new item is the
 * update applied to the old one (or to an item of just the key when there is
 * none); an UpdateItem without any update creates that key-only item. Number overflow and the 400
 * KB limit are checked on the result. UPDATED_OLD / UPDATED_NEW return exactly the updated paths,
 * nested (the expression module projects them).
 */
#include "actions/actions.h"
#include "ops/conds.h"
#include "ops/write.h"

sl_err sl_action_update_item(sl_req *req) {
  sl_table *t;
  sl_item key, old, item;
  sl_keyvals kv;
  sl_txn *txn;
  bool found;
  sl_write_plan plan;
  sl_write_exprs ex;
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Key"), &key);
  if (err != SL_OK)
    return err;
  if ((err = sl_conds_parse(req, req->body, SL_EXPR_OP_UPDATE_ITEM, &ex)) != SL_OK)
    return err;
  if ((err = sl_req_table(req, "TableName", SL_LOOKUP_DATA, &t)) != SL_OK)
    return err;
  if ((err = sl_req_check_key(req, t, &key, &kv)) != SL_OK)
    return err;
  if (ex.update && (err = sl_expr_update_check_keys(&ex.cx, ex.update, &t->key)) != SL_OK)
    return err;
  sl_str rv = sl_req_str(req->body, "ReturnValues");
  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  if ((err = sl_store_item_get(txn, t, &kv, req->arena, &old, &found, NULL)) != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  const sl_item *oldp = found ? &old : NULL;
  bool ok = sl_expr_eval(ex.cond, oldp);
  bool nothing = false;
  if (ok && (err = sl_conds_apply_update(req, &ex, t, &kv, oldp, &item, &nothing)) != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  sl_item attrs = {NULL, 0};
  if (ok) {
    if (sl_str_eq_c(rv, "ALL_OLD") && oldp)
      attrs = old;
    else if (sl_str_eq_c(rv, "ALL_NEW") && !nothing)
      attrs = item;
    else if (sl_str_eq_c(rv, "UPDATED_OLD") && oldp && ex.update)
      attrs = sl_expr_project(req->arena, &ex.update->paths, oldp);
    else if (sl_str_eq_c(rv, "UPDATED_NEW") && ex.update && !nothing)
      attrs = sl_expr_project(req->arena, &ex.update->paths, &item);
  }
  /* A failed condition is priced by the item the request would have
   * written: the old one stands in (facts §2.2). */
  sl_write_plan_init(req, &plan, t, &kv, oldp, ok ? (nothing ? NULL : &item) : oldp);
  sl_write_plan_price(req, &plan, false, !ok);
  return sl_write_plan_finish(req, txn, &plan, ok, &ex, oldp, &attrs);
}
