/*
 * Query — the items of one partition key of a table or an index, in
 * sort-key order, one page at a time.
 * Pinned by tests/conformance/test_query.py, test_key_condition_expression.py
 * and test_query_scan_capacity.py.
 *
 * Request: TableName, IndexName, KeyConditionExpression (or legacy
 * KeyConditions), FilterExpression (QueryFilter), ProjectionExpression
 * (AttributesToGet), Select, ScanIndexForward, Limit, ExclusiveStartKey,
 * ConsistentRead, ExpressionAttributeNames/Values, ReturnConsumedCapacity.
 *
 * Checks, in this order: a key condition present, the read members
 * (ops/reads.h) — no table needed — then the table, the index, the key
 * condition against its key schema, unused names and values, the filter on
 * no key attribute, ConsistentRead on a GSI, the index's projection. Then the core
 * (ops/query.h: range, ExclusiveStartKey, page read, price, admit) and the
 * reply (actions/reply.h).
 */
#include "actions/actions.h"
#include "actions/reply.h"
#include "ops/query.h"

sl_err sl_action_query_parse(sl_req *req, sl_query_in *out, sl_read_exprs *ex_out,
                             sl_item *esk_out) {
  const sl_json *body = req->body;
  sl_read_exprs ex;
  sl_query_in in = {0};
  /* Everything that needs no table first (the service validates the whole
   * request before it looks the table up). */
  bool has_kce = sl_in_has(body, "KeyConditionExpression");
  if (!has_kce && !sl_in_has(body, "KeyConditions"))
    return sl_fail(req, SL_E_VALIDATION,
                   "Either the KeyConditions or KeyConditionExpression parameter must be specified "
                   "in the request.");
  sl_err err = sl_reads_parse(req, sl_in_has(body, "IndexName"), SL_READS_QUERY, &ex);
  if (err != SL_OK)
    return err;
  /* The key condition is read against the key schema: after the table. */
  if ((err = sl_in_table(req, "TableName", SL_LOOKUP_DATA, &in.t)) != SL_OK)
    return err;
  if ((err = sl_reads_index(
           req, in.t, sl_json_get(body, "IndexName") ? sl_in_str(body, "IndexName") : SL_STR_NULL,
           &in.x)) != SL_OK)
    return err;
  const sl_key_schema *ks = in.x ? &in.x->key : &in.t->key;
  sl_expr_ctx *cx = ex.ctx;
  cx->index_name = in.x ? in.x->name : SL_STR_NULL;
  if (has_kce)
    err = sl_expr_parse_key_condition(cx, sl_in_str(body, "KeyConditionExpression"), ks, &in.kc);
  else
    err = sl_expr_legacy_key_conditions(cx, sl_json_get(body, "KeyConditions"), ks, &in.kc);
  if (err != SL_OK)
    return err;
  if ((err = sl_expr_ctx_finish(cx)) != SL_OK)
    return err;
  if (ex.filter && (err = sl_expr_filter_check_keys(cx, ex.filter, ks)) != SL_OK)
    return err;
  in.consistent = sl_in_bool(body, "ConsistentRead", false);
  if (in.consistent && in.x && in.x->global)
    return sl_fail(req, SL_E_VALIDATION,
                   "Consistent reads are not supported on global secondary indexes");
  if ((err = sl_reads_bind(req, in.t, in.x, &ex)) != SL_OK)
    return err;
  in.forward = sl_in_bool(body, "ScanIndexForward", true);
  in.limit = sl_in_int(body, "Limit", 0);
  const sl_json *esk = sl_json_get(body, "ExclusiveStartKey");
  if (esk && esk->type == SL_JSON_OBJECT) {
    if ((err = sl_item_from_json(&req->fail, req->arena, esk, esk_out)) != SL_OK)
      return err;
    in.start = esk_out;
  }
  *ex_out = ex;
  in.ex = ex_out;
  *out = in;
  return SL_OK;
}

sl_err sl_action_query(sl_req *req) {
  sl_read_exprs ex;
  sl_item esk_item;
  sl_query_in in;
  sl_err err = sl_action_query_parse(req, &in, &ex, &esk_item);
  if (err != SL_OK)
    return err;
  sl_page_result page;
  if ((err = sl_query(req, &in, &page)) != SL_OK)
    return err;
  sl_reply_page(req, in.t, in.x, &ex, &page);
  return SL_OK;
}
