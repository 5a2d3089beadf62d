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
 * Checks, in the service's order: the key's values, the expressions, the
 * table, the key against its schema, no update of a key attribute. Then the
 * core (ops/update_item.h: apply is ops/conds.c, shared with
 * TransactWriteItems; an UpdateItem without any update creates the key-only
 * item) and the reply (actions/reply.h).
 */
#include "actions/actions.h"
#include "actions/reply.h"
#include "ops/update_item.h"

static const char *const rv_names[] = {"NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"};

sl_err sl_action_update_item(sl_req *req) {
  sl_item key;
  sl_write_exprs ex;
  sl_update_item_in in = {.ex = &ex};
  /* Expression and legacy parameters mixed win over the Key's values
   * (dynalite's validations, copied from the service; DynamoDB Local agrees):
   * tests/conformance/test_legacy_parameters.py. */
  sl_err err = sl_expr_check_params(&req->fail, req->body, SL_EXPR_OP_UPDATE_ITEM);
  if (err != SL_OK)
    return err;
  err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Key"), &key);
  if (err != SL_OK)
    return err;
  if ((err = sl_conds_parse(req, req->body, SL_EXPR_OP_UPDATE_ITEM, &ex)) != SL_OK)
    return err;
  if ((err = sl_in_table(req, "TableName", SL_LOOKUP_DATA, &in.t)) != SL_OK)
    return err;
  if ((err = sl_req_check_key(req, in.t, &key, &in.kv)) != SL_OK)
    return err;
  if (ex.update && (err = sl_expr_update_check_keys(&ex.cx, ex.update, &in.t->key)) != SL_OK)
    return err;
  /* The model's enum has checked the value. */
  sl_str rv = sl_in_str(req->body, "ReturnValues");
  for (int i = 0; i < 5; i++)
    if (sl_str_eq_c(rv, rv_names[i]))
      in.rv = (sl_return_values)i;

  sl_update_item_out out;
  if ((err = sl_update_item(req, &in, &out)) != SL_OK)
    return err;
  sl_reply_single_write(req, &out.plan, &out.res);
  return SL_OK;
}
