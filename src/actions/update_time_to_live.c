/*
 * UpdateTimeToLive — enables or disables Time to Live on a table.
 * Pinned by tests/conformance/test_ttl.py.
 *
 * Request: TableName, TimeToLiveSpecification {Enabled, AttributeName} (both
 * required by the model). The reply echoes the specification, as the service
 * does (not the DescribeTimeToLive shape). The rules and their order are
 * ops/ttl.h's; the change is a new table version like UpdateTable's.
 */
#include "actions/actions.h"
#include "ops/ttl.h"

sl_err sl_action_update_time_to_live(sl_req *req) {
  const sl_json *spec = sl_json_get(req->body, "TimeToLiveSpecification");
  bool enable = sl_in_bool(spec, "Enabled", false);
  sl_str attr = sl_in_str(spec, "AttributeName");
  sl_err err = sl_update_time_to_live(req, sl_in_str(req->body, "TableName"), enable, attr);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TimeToLiveSpecification");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Enabled");
  sl_jw_bool(w, enable);
  sl_jw_key_c(w, "AttributeName");
  sl_jw_str(w, attr);
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
