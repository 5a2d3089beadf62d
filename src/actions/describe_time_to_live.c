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
  sl_table *t;
  sl_err err = sl_in_table(req, "TableName", SL_LOOKUP_CONTROL, &t);
  if (err != SL_OK)
    return err;
  if (t->status == SL_STATUS_CREATING || t->status == SL_STATUS_DELETING) {
    const char *state = sl_status_name((sl_status)t->status);
    return sl_fail(req, SL_E_VALIDATION,
                   "Cannot describe time to live while table is in %s state: Current table state "
                   "is %s",
                   state, state);
  }
  uint8_t status = t->ttl_status < 4 ? t->ttl_status : SL_TTL_DISABLED;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TimeToLiveDescription");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TimeToLiveStatus");
  sl_jw_str_c(w, names[status]);
  if (status == SL_TTL_ENABLED || status == SL_TTL_ENABLING) {
    sl_jw_key_c(w, "AttributeName");
    sl_jw_str(w, t->ttl_attr);
  }
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
