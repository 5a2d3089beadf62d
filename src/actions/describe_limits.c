/*
 * DescribeLimits — the account's provisioned-capacity quotas (facts §6):
 * per account and per table, reads and writes, from the capacity model's
 * parameters (capacity-model.md §5). Pinned by
 * tests/conformance/test_capacity_http.py (test_describe_limits).
 */
#include "actions/actions.h"
#include "ops/account.h"

sl_err sl_action_describe_limits(sl_req *req) {
  sl_account_limits l;
  sl_describe_limits(req, &l);
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "AccountMaxReadCapacityUnits");
  sl_jw_int(w, l.account_read);
  sl_jw_key_c(w, "AccountMaxWriteCapacityUnits");
  sl_jw_int(w, l.account_write);
  sl_jw_key_c(w, "TableMaxReadCapacityUnits");
  sl_jw_int(w, l.table_read);
  sl_jw_key_c(w, "TableMaxWriteCapacityUnits");
  sl_jw_int(w, l.table_write);
  sl_jw_obj_end(w);
  return SL_OK;
}
