/*
 * Scan — reads a table or an index in hash order, one page at a time.
 * Pinned by tests/conformance/test_scan.py.
 *
 * Request: TableName, IndexName, Limit, Select, ExclusiveStartKey,
 * ConsistentRead, Segment / TotalSegments (parallel scan), FilterExpression,
 * ProjectionExpression, ExpressionAttributeNames/Values, and the legacy
 * ScanFilter / ConditionalOperator / AttributesToGet (translated by the
 * expression layer), ReturnConsumedCapacity.
 *
 * Checks, in this order: what needs no table — Segment and TotalSegments
 * together and in range, the read members (ops/reads.h), ExclusiveStartKey's
 * values — then the table, the index, ConsistentRead on a GSI, the index's
 * projection. Then the core (ops/scan.h) and the reply (actions/reply.h).
 */
#include "actions/actions.h"
#include "actions/reply.h"
#include "ops/scan.h"

sl_err sl_action_scan_parse(sl_req *req, sl_scan_in *out, sl_read_exprs *ex_out, sl_item *esk_out) {
  const sl_json *body = req->body;
  sl_read_exprs ex;
  sl_scan_in in = {0};
  /* Everything that needs no table first (the service validates the whole
   * request before it looks the table up). */
  sl_err err;
  in.consistent = sl_in_bool(body, "ConsistentRead", false);
  /* Parallel scan: both members or neither. */
  bool has_seg = sl_in_has(body, "Segment"), has_total = sl_in_has(body, "TotalSegments");
  in.segment = sl_in_int(body, "Segment", 0);
  in.total = sl_in_int(body, "TotalSegments", 1);
  if (has_seg != has_total)
    return sl_fail(req, SL_E_VALIDATION,
                   has_seg ? "The TotalSegments parameter is required but was not present in the "
                             "request when Segment parameter is present"
                           : "The Segment parameter is required but was not present in the request "
                             "when parameter TotalSegments is present");
  /* The service's newer wording drops the older ": Segment: 5 is not less
   * than TotalSegments: 5" (a public conformance suite's Scan message tests,
   * September 2026; see server/validate.c "REWORD_SCAN"). */
  if (in.segment >= in.total)
    return sl_fail(req, SL_E_VALIDATION,
                   "The Segment parameter is zero-based and must be less than parameter "
                   "TotalSegments");
  if ((err = sl_reads_parse(req, sl_in_has(body, "IndexName"), SL_READS_SCAN, &ex)) != SL_OK)
    return err;
  in.limit = sl_in_int(body, "Limit", 0);
  const sl_json *esk = sl_json_get(body, "ExclusiveStartKey");
  if (esk && esk->type == SL_JSON_OBJECT) {
    if ((err = sl_item_from_json(&req->fail, req->arena, esk, esk_out)) != SL_OK)
      return err;
    in.start = esk_out;
  }
  /* Then the table and what needs it. */
  if ((err = sl_in_table(req, "TableName", SL_LOOKUP_DATA, &in.t)) != SL_OK)
    return err;
  if ((err = sl_reads_index(
           req, in.t, sl_json_get(body, "IndexName") ? sl_in_str(body, "IndexName") : SL_STR_NULL,
           &in.x)) != SL_OK)
    return err;
  if (in.consistent && in.x && in.x->global)
    return sl_fail(req, SL_E_VALIDATION,
                   "Consistent reads are not supported on global secondary indexes");
  if ((err = sl_reads_bind(req, in.t, in.x, &ex)) != SL_OK)
    return err;
  *ex_out = ex;
  in.ex = ex_out;
  *out = in;
  return SL_OK;
}

sl_err sl_action_scan(sl_req *req) {
  sl_read_exprs ex;
  sl_item esk_item;
  sl_scan_in in;
  sl_err err = sl_action_scan_parse(req, &in, &ex, &esk_item);
  if (err != SL_OK)
    return err;
  sl_page_result page;
  if ((err = sl_scan(req, &in, &page)) != SL_OK)
    return err;
  sl_reply_page(req, in.t, in.x, &ex, &page);
  return SL_OK;
}
