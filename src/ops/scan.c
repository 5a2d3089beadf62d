/* Scan's core; see scan.h. Pinned by tests/conformance/test_scan.py. */
#include "ops/scan.h"
#include "store/key.h"

static uint64_t segment_start(int64_t segment, int64_t total) {
  return (uint64_t)((((unsigned __int128)1 << 64) * (uint64_t)segment) / (uint64_t)total);
}

sl_err sl_scan(sl_req *req, const sl_scan_in *in, sl_page_result *out) {
  sl_err err;
  /* The key range: the resource's entries within the segment's hashes. */
  uint32_t id = in->x ? in->x->id : in->t->id;
  sl_buf lo, hi, start;
  sl_buf_init(&lo, req->arena);
  sl_buf_init(&hi, req->arena);
  sl_buf_init(&start, req->arena);
  sl_key_put_prefix(&lo, id, segment_start(in->segment, in->total));
  if (in->segment + 1 < in->total)
    sl_key_put_prefix(&hi, id, segment_start(in->segment + 1, in->total));
  else
    sl_key_put_prefix(&hi, id + 1, 0);
  if (in->start) {
    if ((err = sl_page_start_key(req, in->t, in->x, in->start, &start)) != SL_OK)
      return err;
    if (sl_str_cmp(sl_buf_str(&start), sl_buf_str(&lo)) < 0 ||
        sl_str_cmp(sl_buf_str(&start), sl_buf_str(&hi)) >= 0)
      return sl_fail(req, SL_E_VALIDATION,
                     "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                     "ExclusiveStartKey with correct Segment. TotalSegments: %lld Segment: %lld",
                     (long long)in->total, (long long)in->segment);
  }
  sl_page_opts o;
  memset(&o, 0, sizeof(o));
  o.t = in->t;
  o.x = in->x;
  o.consistent = in->consistent;
  o.forward = true;
  o.limit = in->limit;
  o.preview = in->preview;
  o.lo = sl_buf_str(&lo);
  o.hi = sl_buf_str(&hi);
  o.exclusive_start = sl_buf_str(&start);
  sl_reads_page_opts((sl_read_exprs *)in->ex, &o);
  sl_txn *txn;
  if ((err = sl_req_snapshot(req, &txn)) != SL_OK)
    return err;
  return sl_page_read(req, txn, &o, out);
}
