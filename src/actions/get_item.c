/*
 * GetItem — reads one item by its full key.
 * Pinned by tests/conformance/test_get_item.py and test_item_size.py.
 *
 * Request: TableName, Key, ConsistentRead, ProjectionExpression (or legacy
 * AttributesToGet) with ExpressionAttributeNames, ReturnConsumedCapacity.
 * Checks, in the service's order: the key's values, the projection, the
 * table, the key against its schema. The core (read, price, admit) is
 * ops/get_item.h; then the reply: Item, ConsumedCapacity.
 */
#include "actions/actions.h"
#include "ops/get_item.h"

sl_err sl_action_get_item(sl_req *req) {
  sl_item key;
  sl_get_item_in in = {0};
  sl_read_exprs ex;
  /* Expression and legacy parameters mixed win over the Key's values
   * (dynalite's validations, copied from the service; DynamoDB Local agrees):
   * tests/conformance/test_legacy_parameters.py. */
  sl_err err = sl_expr_check_params(&req->fail, req->body, SL_EXPR_OP_GET_ITEM);
  if (err != SL_OK)
    return err;
  err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Key"), &key);
  if (err != SL_OK)
    return err;
  if ((err = sl_reads_parse(req, false, SL_READS_GET, &ex)) != SL_OK)
    return err;
  if ((err = sl_in_table(req, "TableName", SL_LOOKUP_DATA, &in.t)) != SL_OK)
    return err;
  if ((err = sl_reads_bind(req, in.t, NULL, &ex)) != SL_OK)
    return err;
  if ((err = sl_req_check_key(req, in.t, &key, &in.kv)) != SL_OK)
    return err;
  in.consistent = sl_in_bool(req->body, "ConsistentRead", false);
  in.ex = &ex;
  sl_rcc rcc = sl_in_rcc(req->body);

  sl_get_item_out out;
  if ((err = sl_get_item(req, &in, &out)) != SL_OK)
    return err;

  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  if (out.found) {
    sl_jw_key_c(w, "Item");
    sl_item_write_json(w, &out.item);
  }
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = {.table_name = sl_in_str(req->body, "TableName"), .table_read_mu = out.read_mu};
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_reply_consumed(&req->w, &c, rcc);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
