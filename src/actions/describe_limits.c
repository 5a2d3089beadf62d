/*
 * DescribeLimits — the account's provisioned-capacity quotas (facts §6):
 * per account and per table, reads and writes, from the capacity model's
 * parameters (capacity-model.md §5). Pinned by
 * tests/conformance/test_capacity_http.py (test_describe_limits).
 */
#include "actions/actions.h"
#include "ops/req.h"
#include "cap/cap.h"

sl_err sl_action_describe_limits(sl_req *req) {
  const sl_cap_params *p = sl_cap_params_of(req->env->cap);
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "AccountMaxReadCapacityUnits");
  sl_jw_int(w, p->account_quota_read);
  sl_jw_key_c(w, "AccountMaxWriteCapacityUnits");
  sl_jw_int(w, p->account_quota_write);
  sl_jw_key_c(w, "TableMaxReadCapacityUnits");
  sl_jw_int(w, p->table_quota_read);
  sl_jw_key_c(w, "TableMaxWriteCapacityUnits");
  sl_jw_int(w, p->table_quota_write);
  sl_jw_obj_end(w);
  return SL_OK;
}
