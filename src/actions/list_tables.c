/*
 * ListTables — table names in name order, paginated with Limit (1..100,
 * default 100) and ExclusiveStartTableName / LastEvaluatedTableName.
 * Pinned by tests/conformance/test_list_tables.py.
 *
 * LastEvaluatedTableName is returned only when more tables follow, as the
 * service does.
 */
#include "actions/actions.h"
#include "ops/list_tables.h"

sl_err sl_action_list_tables(sl_req *req) {
  sl_list_tables_result res;
  sl_list_tables(req, sl_in_int(req->body, "Limit", 100),
                 sl_in_str(req->body, "ExclusiveStartTableName"), &res);
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableNames");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < res.n; i++)
    sl_jw_str(w, res.names[i]);
  sl_jw_arr_end(w);
  if (res.last_evaluated.len) {
    sl_jw_key_c(w, "LastEvaluatedTableName");
    sl_jw_str(w, res.last_evaluated);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
