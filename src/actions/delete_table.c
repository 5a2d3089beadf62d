/*
 * DeleteTable — deletes a table, its indexes and every item.
 * Pinned by tests/conformance/test_delete_table.py.
 *
 * The reply describes the table as DELETING (the service's shape); the data
 * is gone when the call returns. A table with deletion protection enabled
 * cannot be deleted.
 */
#include "actions/actions.h"
#include "ops/describe.h"
#include "ops/indexes.h"
#include "ops/tables.h"

sl_err sl_action_delete_table(sl_req *req) {
  sl_table *t;
  sl_err err = sl_req_table(req, "TableName", SL_LOOKUP_CONTROL, &t);
  if (err != SL_OK)
    return err;
  if (t->status == SL_STATUS_CREATING || t->status == SL_STATUS_DELETING)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   "Attempt to change a resource which is still in use: Table is being %s: %.*s",
                   t->status == SL_STATUS_CREATING ? "created" : "deleted", SL_STR_FMT(t->name));
  if ((err = sl_indexes_check_delete_table(req, t)) != SL_OK)
    return err;
  if (t->deletion_protection)
    return sl_fail(req, SL_E_VALIDATION,
                   "Resource cannot be deleted as it is currently protected against deletion. "
                   "Disable deletion protection first.");
  if ((err = sl_tables_drop(req->env, t, &req->fail)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "TableDescription");
  sl_describe_table(req, t, SL_STATUS_DELETING);
  sl_jw_obj_end(&req->w);
  req->table = NULL;
  sl_tables_detach_capacity(req->env, t);
  sl_catalog_remove(req->env->catalog, t->name);
  return SL_OK;
}
