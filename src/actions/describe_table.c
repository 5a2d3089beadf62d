/*
 * DescribeTable — the table's description; its core is the control-plane
 * lookup (ops/req.h sl_req_lookup), the reply actions/describe.h. Pinned by
 * tests/conformance/test_describe_table.py.
 */
#include "actions/actions.h"
#include "actions/describe.h"

sl_err sl_action_describe_table(sl_req *req) {
  sl_table *t;
  sl_err err = sl_in_table(req, "TableName", SL_LOOKUP_CONTROL, &t);
  if (err != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "Table");
  sl_describe_table(req, t, -1);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
