/*
 * DeleteTable — deletes a table, its indexes and every item.
 * Pinned by tests/conformance/test_delete_table.py.
 *
 * The table by name or ARN; then the core (ops/delete_table.h: in-use and
 * protection checks, the drop) and the reply, the service's short
 * description of a table being DELETING (ops/describe.h); the data is gone
 * when the call returns.
 */
#include "actions/actions.h"
#include "ops/delete_table.h"
#include "actions/describe.h"

sl_err sl_action_delete_table(sl_req *req) {
  sl_table *t, *gone;
  sl_err err = sl_in_table(req, "TableName", SL_LOOKUP_CONTROL, &t);
  if (err != SL_OK)
    return err;
  if ((err = sl_delete_table(req, t, &gone)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "TableDescription");
  sl_describe_deleted_table(req, gone);
  sl_jw_obj_end(&req->w);
  sl_table_free(gone);
  return SL_OK;
}
