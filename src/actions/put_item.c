/*
 * PutItem — creates or replaces one item, optionally under a condition.
 * Pinned by tests/conformance/test_put_item.py, test_item_size.py and
 * test_condition_expression.py.
 *
 * Request: TableName, Item, ConditionExpression (or legacy Expected +
 * ConditionalOperator), ExpressionAttributeNames/Values, ReturnValues (NONE |
 * ALL_OLD), ReturnValuesOnConditionCheckFailure, ReturnConsumedCapacity,
 * ReturnItemCollectionMetrics.
 * Order of checks (the service's): item values and expressions, the table,
 * the item against the key schema, ReturnValues. Then the core
 * (ops/put_item.h: read, condition, price, admit, apply, commit) and the
 * reply (actions/reply.h).
 */
#include "actions/actions.h"
#include "actions/reply.h"
#include "ops/put_item.h"

sl_err sl_action_put_item(sl_req *req) {
  sl_item item;
  sl_write_exprs ex;
  sl_put_item_in in = {.item = &item, .ex = &ex};
  /* Expression and legacy parameters mixed win over the Item's values
   * (dynalite's validations, copied from the service; DynamoDB Local agrees):
   * tests/conformance/test_legacy_parameters.py. */
  sl_err err = sl_expr_check_params(&req->fail, req->body, SL_EXPR_OP_PUT_ITEM);
  if (err != SL_OK)
    return err;
  err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Item"), &item);
  if (err != SL_OK)
    return err;
  if ((err = sl_conds_parse(req, req->body, SL_EXPR_OP_PUT_ITEM, &ex)) != SL_OK)
    return err;
  if ((err = sl_in_table(req, "TableName", SL_LOOKUP_DATA, &in.t)) != SL_OK)
    return err;
  if ((err = sl_req_check_item(req, in.t, &item, &in.kv)) != SL_OK)
    return err;
  sl_str rv = sl_in_str(req->body, "ReturnValues");
  if (rv.len && !sl_str_eq_c(rv, "NONE") && !sl_str_eq_c(rv, "ALL_OLD"))
    return sl_fail(req, SL_E_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
  in.return_old = sl_str_eq_c(rv, "ALL_OLD");

  sl_put_item_out out;
  if ((err = sl_put_item(req, &in, &out)) != SL_OK)
    return err;
  sl_reply_single_write(req, &out.plan, &out.res);
  return SL_OK;
}
