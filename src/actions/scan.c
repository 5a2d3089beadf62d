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
 * Order and pages (api/pages.h): items come in partition-key hash order, as
 * the service's do; a parallel scan's segment s of N is the hash range
 * [s * 2^64 / N, (s + 1) * 2^64 / N), so the segments cover every item exactly
 * once. Cost: the bytes *read* (not returned) per page, rounded up to 4 KB.
 */
#include "actions/actions.h"
#include "ops/pages.h"
#include "ops/reads.h"
#include "store/key.h"

static uint64_t segment_start(int64_t segment, int64_t total) {
  return (uint64_t)((((unsigned __int128)1 << 64) * (uint64_t)segment) / (uint64_t)total);
}

sl_err sl_action_scan(sl_req *req) {
  const sl_json *body = req->body;
  sl_table *t;
  const sl_index *x = NULL;
  sl_txn *txn = NULL;
  sl_read_exprs ex;
  sl_page_opts o;
  sl_page_result page;
  sl_err err = sl_req_table(req, "TableName", SL_LOOKUP_DATA, &t);
  if (err != SL_OK)
    return err;
  if ((err = sl_reads_index(req, t, &x)) != SL_OK)
    return err;
  bool consistent = sl_req_bool(body, "ConsistentRead", false);
  if (consistent && x && x->global)
    return sl_fail(req, SL_E_VALIDATION,
                   "Consistent reads are not supported on global secondary indexes");

  /* Parallel scan: both members or neither. */
  bool has_seg = sl_req_has(body, "Segment"), has_total = sl_req_has(body, "TotalSegments");
  int64_t segment = sl_req_int(body, "Segment", 0), total = sl_req_int(body, "TotalSegments", 1);
  if (has_seg != has_total)
    return sl_fail(req, SL_E_VALIDATION,
                   has_seg ? "The TotalSegments parameter is required but was not present in the "
                             "request when Segment parameter is present"
                           : "The Segment parameter is required but was not present in the request "
                             "when parameter TotalSegments is present");
  if (segment >= total)
    return sl_fail(req, SL_E_VALIDATION,
                   "The Segment parameter is zero-based and must be less than parameter "
                   "TotalSegments: Segment: %lld is not less than TotalSegments: %lld",
                   (long long)segment, (long long)total);

  if ((err = sl_reads_parse(req, t, x, SL_READS_SCAN, &ex)) != SL_OK)
    return err;

  /* The key range: the resource's entries within the segment's hashes. */
  uint32_t id = x ? x->id : t->id;
  sl_buf lo, hi, start;
  sl_buf_init(&lo, req->arena);
  sl_buf_init(&hi, req->arena);
  sl_buf_init(&start, req->arena);
  sl_key_put_prefix(&lo, id, segment_start(segment, total));
  if (segment + 1 < total)
    sl_key_put_prefix(&hi, id, segment_start(segment + 1, total));
  else
    sl_key_put_prefix(&hi, id + 1, 0);
  const sl_json *esk = sl_json_get(body, "ExclusiveStartKey");
  if (esk && esk->type == SL_JSON_OBJECT) {
    if ((err = sl_page_start_key(req, t, x, esk, &start, NULL)) != SL_OK)
      return err;
    if (sl_str_cmp(sl_buf_str(&start), sl_buf_str(&lo)) < 0 ||
        sl_str_cmp(sl_buf_str(&start), sl_buf_str(&hi)) >= 0)
      return sl_fail(req, SL_E_VALIDATION,
                     "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                     "ExclusiveStartKey with correct Segment. TotalSegments: %lld Segment: %lld",
                     (long long)total, (long long)segment);
  }

  memset(&o, 0, sizeof(o));
  o.t = t;
  o.x = x;
  o.consistent = consistent;
  o.forward = true;
  o.limit = sl_req_int(body, "Limit", 0);
  o.lo = sl_buf_str(&lo);
  o.hi = sl_buf_str(&hi);
  o.exclusive_start = sl_buf_str(&start);
  sl_reads_page_opts(&ex, &o);

  if ((err = sl_store_begin(req->env->store, false, &req->fail, &txn)) != SL_OK)
    return err;
  if ((err = sl_page_read(req, txn, &o, &page)) != SL_OK)
    goto out;
  sl_reads_write_page(req, t, x, &ex, &page);
out:
  sl_store_abort(txn);
  return err;
}
