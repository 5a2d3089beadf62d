/*
 * DeleteItem — deletes one item by its full key, optionally under a
 * condition. Pinned by tests/conformance/test_delete_item.py,
 * test_item_size.py and test_condition_expression.py.
 *
 * Request: TableName, Key, ConditionExpression (or Expected),
 * ExpressionAttributeNames/Values, ReturnValues (NONE | ALL_OLD),
 * ReturnValuesOnConditionCheckFailure, ReturnConsumedCapacity,
 * ReturnItemCollectionMetrics.
 * Cost: the deleted item's size rounded up to 1 KB; deleting nothing costs
 * 1 unit; a failed condition costs too.
 */
#include "actions/actions.h"
#include "ops/conds.h"
#include "ops/write.h"

sl_err sl_action_delete_item(sl_req *req) {
  sl_table *t;
  sl_item key, old;
  sl_keyvals kv;
  sl_txn *txn;
  bool found;
  sl_write_plan plan;
  sl_write_exprs ex;
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Key"), &key);
  if (err != SL_OK)
    return err;
  if ((err = sl_conds_parse(req, req->body, SL_EXPR_OP_PUT_ITEM, &ex)) != SL_OK)
    return err;
  if ((err = sl_req_table(req, "TableName", SL_LOOKUP_DATA, &t)) != SL_OK)
    return err;
  if ((err = sl_req_check_key(req, t, &key, &kv)) != SL_OK)
    return err;
  sl_str rv = sl_req_str(req->body, "ReturnValues");
  if (rv.len && !sl_str_eq_c(rv, "NONE") && !sl_str_eq_c(rv, "ALL_OLD"))
    return sl_fail(req, SL_E_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  if ((err = sl_store_item_get(txn, t, &kv, req->arena, &old, &found, NULL)) != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  bool ok = sl_expr_eval(ex.cond, found ? &old : NULL);
  sl_write_plan_init(req, &plan, t, &kv, found ? &old : NULL, NULL);
  sl_write_plan_price(req, &plan, false, !ok);
  return sl_write_plan_finish(req, txn, &plan, ok, &ex, found ? &old : NULL,
                              found && sl_str_eq_c(rv, "ALL_OLD") ? &old : NULL);
}
