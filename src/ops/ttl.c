/* Time to Live: the UpdateTimeToLive rules; see ttl.h. Pinned by
 * tests/conformance/test_ttl.py. */
#include "ops/ttl.h"
#include "cap/cap.h"

sl_err sl_ttl_check_update(sl_req *req, const sl_table *t, bool enable, sl_str attr) {
  bool on = t->ttl_status == SL_TTL_ENABLED || t->ttl_status == SL_TTL_ENABLING;
  if (on && !sl_str_eq(attr, t->ttl_attr))
    return sl_fail(req, SL_E_VALIDATION,
                   "TimeToLive is active on a different AttributeName: current AttributeName is "
                   "%.*s",
                   SL_STR_FMT(t->ttl_attr));
  if (on && enable)
    return sl_fail(req, SL_E_VALIDATION, "TimeToLive is already enabled");
  if (!on && !enable)
    return sl_fail(req, SL_E_VALIDATION, "TimeToLive is already disabled");
  int64_t interval = sl_cap_params_of(req->env->cap)->ttl_update_interval_ms;
  if (t->ttl_changed_ms && req->now_ms < (int64_t)t->ttl_changed_ms + interval)
    return sl_fail(req, SL_E_VALIDATION,
                   "Time to live has been modified multiple times within a fixed interval");
  return SL_OK;
}
