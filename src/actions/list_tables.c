/*
 * ListTables — table names in name order, paginated with Limit (1..100,
 * default 100) and ExclusiveStartTableName / LastEvaluatedTableName.
 * Pinned by tests/conformance/test_list_tables.py.
 *
 * LastEvaluatedTableName is returned only when more tables follow, as the
 * service does.
 */
#include "actions/actions.h"
#include "ops/req.h"

sl_err sl_action_list_tables(sl_req *req) {
  int64_t limit = sl_in_int(req->body, "Limit", 100);
  sl_str start = sl_in_str(req->body, "ExclusiveStartTableName");
  sl_catalog *cat = req->env->catalog;
  size_t i = start.len ? sl_catalog_upper_bound(cat, start) : 0;
  size_t n = sl_catalog_count(cat);
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableNames");
  sl_jw_arr_begin(w);
  int64_t k = 0;
  sl_str last = SL_STR_NULL;
  for (; i < n && k < limit; i++, k++) {
    last = sl_catalog_at(cat, i)->name;
    sl_jw_str(w, last);
  }
  sl_jw_arr_end(w);
  if (i < n && last.len) {
    sl_jw_key_c(w, "LastEvaluatedTableName");
    sl_jw_str(w, last);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
