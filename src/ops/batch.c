/* Helpers of the batch operations; see batch.h. */
#include "ops/batch.h"

sl_err sl_batch_table(sl_req *req, sl_str given, sl_table **out) {
  sl_str name = given;
  if (sl_str_starts_with(given, SL_STR("arn:")))
    name = sl_req_arn_table_name(req, given);
  sl_table *t = name.len ? sl_catalog_get(req->env->catalog, name) : NULL;
  if (!t || (t->status != SL_STATUS_ACTIVE && t->status != SL_STATUS_UPDATING))
    return sl_fail(req, SL_E_RESOURCE_NOT_FOUND, "Requested resource not found");
  if (!req->table)
    req->table = t;
  *out = t;
  return SL_OK;
}

sl_str sl_batch_item_key(sl_req *req, const sl_table *t, const sl_keyvals *kv) {
  sl_buf b;
  sl_buf_init(&b, req->arena);
  sl_store_item_key(&b, t, kv);
  return sl_buf_str(&b);
}
