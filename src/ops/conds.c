/* Expression members of single-item writes; see conds.h. */
#include "ops/conds.h"

sl_err sl_conds_failed(sl_req *req, const sl_write_exprs *w, const sl_item *old) {
  sl_fail(req, SL_E_CONDITIONAL_CHECK_FAILED, "The conditional request failed");
  if (w->all_old_on_fail && old && !req->fail.detail_kind) {
    /* A copy: the write transaction 'old' points into is aborted before the
     * error is written. */
    sl_item *copy = SL_NEW(req->arena, sl_item);
    *copy = sl_item_copy(req->arena, old);
    req->fail.detail_kind = SL_DETAIL_ITEM;
    req->fail.detail = copy;
  }
  return SL_E_CONDITIONAL_CHECK_FAILED;
}

/* The key-only item a missing item starts from. */
sl_item sl_conds_key_item(sl_req *req, const sl_table *t, const sl_keyvals *kv) {
  sl_item it = {SL_NEW_ARRAY(req->arena, sl_attr, 2), 0};
  it.attrs[it.n++] = (sl_attr){t->key.hash, *kv->hash};
  if (kv->range)
    it.attrs[it.n++] = (sl_attr){t->key.range, *kv->range};
  sl_item_canonicalize(&it);
  return it;
}

/* Only REMOVE actions: on an absent item they change nothing, and nothing
 * is created (Alternator's test_nested_attribute_remove_from_missing_item and
 * test_update_item_returnvalues_all_new, which pass on AWS). */
static bool removes_only(const sl_expr_update *u) {
  for (uint32_t i = 0; u && i < u->n; i++)
    if (u->acts[i].kind != SL_EXPR_REMOVE)
      return false;
  return u && u->n > 0;
}

/* apply: old (or NULL) -> new (NULL: nothing to write), or the service's
 * error. */
sl_err sl_conds_apply_update(sl_req *req, sl_write_exprs *ex, const sl_table *t,
                             const sl_keyvals *kv, const sl_item *old, sl_item *out,
                             bool *nothing) {
  *nothing = !old && removes_only(ex->update);
  if (*nothing)
    return SL_OK;
  sl_item base = old ? *old : sl_conds_key_item(req, t, kv);
  if (!ex->update) {
    *out = base;
    return SL_OK;
  }
  sl_err err = sl_expr_update_apply(&ex->cx, ex->update, &base, out);
  if (err != SL_OK)
    return err;
  if (sl_item_size(out) > SL_ITEM_MAX_BYTES)
    return sl_fail(req, SL_E_VALIDATION,
                   "Item size to update has exceeded the maximum allowed size");
  return sl_req_check_index_key_types(req, t, out);
}
