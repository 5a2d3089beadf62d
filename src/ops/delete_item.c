/* DeleteItem's core; see delete_item.h. Pinned by tests/conformance/test_delete_item.py. */
#include "ops/delete_item.h"

sl_err sl_delete_item(sl_req *req, const sl_delete_item_in *in, sl_delete_item_out *out) {
  sl_txn *txn;
  sl_item old;
  const sl_item *oldp;
  sl_err err = sl_write_begin(req, in->t, &in->kv, &txn, &old, &oldp);
  if (err != SL_OK)
    return err;
  bool ok = sl_expr_eval(in->ex->cond, oldp);
  sl_write_plan_init(req, &out->plan, in->t, &in->kv, oldp, NULL);
  out->plan.preview = in->preview;
  sl_write_plan_price(req, &out->plan, false, !ok);
  return sl_write_plan_finish(req, txn, &out->plan, ok, in->ex, oldp,
                              oldp && in->return_old ? oldp : NULL, &out->res);
}
