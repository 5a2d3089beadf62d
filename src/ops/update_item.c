/* UpdateItem's core; see update_item.h. Pinned by tests/conformance/test_update_item.py and
 * test_update_expression.py. */
#include "ops/update_item.h"

sl_err sl_update_item(sl_req *req, const sl_update_item_in *in, sl_update_item_out *out) {
  sl_txn *txn;
  sl_item old, item;
  const sl_item *oldp;
  sl_write_exprs *ex = in->ex;
  sl_err err = sl_write_begin(req, in->t, &in->kv, &txn, &old, &oldp);
  if (err != SL_OK)
    return err;
  bool ok = sl_expr_eval(ex->cond, oldp);
  bool nothing = false;
  if (ok &&
      (err = sl_conds_apply_update(req, ex, in->t, &in->kv, oldp, &item, &nothing)) == SL_OK &&
      !nothing)
    err = sl_req_check_updated_index_keys(req, in->t, oldp, &item);
  if (err != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  sl_item attrs = {NULL, 0};
  if (ok) {
    if (in->rv == SL_RV_ALL_OLD && oldp)
      attrs = *oldp;
    else if (in->rv == SL_RV_ALL_NEW && !nothing)
      attrs = item;
    else if (in->rv == SL_RV_UPDATED_OLD && oldp && ex->update)
      attrs = sl_expr_project(req->arena, &ex->update->paths, oldp);
    else if (in->rv == SL_RV_UPDATED_NEW && ex->update && !nothing)
      attrs = sl_expr_project(req->arena, &ex->update->paths, &item);
  }
  sl_write_plan_init(req, &out->plan, in->t, &in->kv, oldp, ok ? (nothing ? NULL : &item) : oldp);
  out->plan.preview = in->preview;
  sl_write_plan_price(req, &out->plan, false, !ok);
  return sl_write_plan_finish(req, txn, &out->plan, ok, ex, oldp, &attrs, &out->res);
}
