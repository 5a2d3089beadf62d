/*
 * UpdateTimeToLive — enables or disables Time to Live on a table.
 * Pinned by tests/conformance/test_ttl.py.
 *
 * Request: TableName, TimeToLiveSpecification {Enabled, AttributeName} (both
 * required by the model). The reply echoes the specification, as the service
 * does (not the DescribeTimeToLive shape). The rules and their order are
 * jobs/ttl.h's; the change is a new table version like UpdateTable's.
 */
#include "actions/actions.h"
#include "ops/tables.h"
#include "ops/ttl.h"

sl_err sl_action_update_time_to_live(sl_req *req) {
  sl_table *old, *t = NULL;
  sl_err err = sl_in_table(req, "TableName", SL_LOOKUP_CONTROL, &old);
  if (err != SL_OK)
    return err;
  /* The service's text while a table is being created (DDB-TABLE-115). */
  if (old->status == SL_STATUS_CREATING)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   "Attempt to change a resource which is still in use: Table %.*s is being "
                   "created",
                   SL_STR_FMT(old->name));
  const sl_json *spec = sl_json_get(req->body, "TimeToLiveSpecification");
  bool enable = sl_in_bool(spec, "Enabled", false);
  sl_str attr = sl_in_str(spec, "AttributeName");
  if ((err = sl_ttl_check_update(req, old, enable, attr)) != SL_OK)
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
