/*
 * DescribeTimeToLive — the table's Time to Live status.
 * Pinned by tests/conformance/test_ttl.py.
 *
 * Reply: {"TimeToLiveDescription":{"TimeToLiveStatus":..,"AttributeName":..}},
 * AttributeName only while enabled: a disabled table reads the same as one
 * never configured (DDB-TABLE-144).
 */
#include "actions/actions.h"
#include "ops/ttl.h"

sl_err sl_action_describe_time_to_live(sl_req *req) {
  static const char *const names[] = {"DISABLED", "ENABLING", "ENABLED", "DISABLING"};
  sl_ttl_description d;
  sl_err err = sl_describe_time_to_live(req, sl_in_str(req->body, "TableName"), &d);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TimeToLiveDescription");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TimeToLiveStatus");
  sl_jw_str_c(w, names[d.status]);
  if (d.attr.len) {
    sl_jw_key_c(w, "AttributeName");
    sl_jw_str(w, d.attr);
  }
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
