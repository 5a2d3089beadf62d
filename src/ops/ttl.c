/* Time to Live cores; see ttl.h. Pinned by
 * tests/conformance/test_ttl.py. */
#include "ops/ttl.h"
#include "cap/cap.h"
#include "ops/tables.h"

static sl_err check_update(sl_req *req, const sl_table *t, bool enable, sl_str attr) {
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

sl_err sl_update_time_to_live(sl_req *req, sl_str table, bool enable, sl_str attr) {
  sl_table *old, *t;
  sl_err err = sl_req_lookup(req, table, SL_LOOKUP_CONTROL, &old);
  if (err != SL_OK)
    return err;
  /* The service's text while a table is being created (DDB-TABLE-115). */
  if (old->status == SL_STATUS_CREATING)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   "Attempt to change a resource which is still in use: Table %.*s is being "
                   "created",
                   SL_STR_FMT(old->name));
  if ((err = check_update(req, old, enable, attr)) != SL_OK)
    return err;
  t = sl_table_clone(old);
  t->ttl_status = enable ? SL_TTL_ENABLED : SL_TTL_DISABLED;
  t->ttl_attr = enable ? sl_table_str(t, attr) : SL_STR_NULL;
  t->ttl_changed_ms = (uint64_t)req->now_ms;
  /* A new setting starts a new sweep. */
  t->ttl_sweeping = false;
  t->ttl_pass_ms = 0;
  t->ttl_cursor_len = 0;
  if ((err = sl_tables_commit_version(req, old, t)) != SL_OK) {
    sl_table_free(t);
    return err;
  }
  req->table = t;
  return SL_OK;
}

sl_err sl_describe_time_to_live(sl_req *req, sl_str table, sl_ttl_description *out) {
  sl_table *t;
  sl_err err = sl_req_lookup(req, table, SL_LOOKUP_CONTROL, &t);
  if (err != SL_OK)
    return err;
  if (t->status == SL_STATUS_CREATING || t->status == SL_STATUS_DELETING) {
    const char *state = sl_status_name((sl_status)t->status);
    return sl_fail(req, SL_E_VALIDATION,
                   "Cannot describe time to live while table is in %s state: Current table state "
                   "is %s",
                   state, state);
  }
  out->status = t->ttl_status < 4 ? t->ttl_status : SL_TTL_DISABLED;
  out->attr =
      out->status == SL_TTL_ENABLED || out->status == SL_TTL_ENABLING ? t->ttl_attr : SL_STR_NULL;
  return SL_OK;
}
