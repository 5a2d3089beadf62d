/* BatchWriteItem's core; see batch_write_item.h. Pinned by
 * tests/conformance/test_batch_write_item.py and test_batch_capacity.py. */
#include "ops/batch_write_item.h"

sl_err sl_batch_write_item(sl_req *req, sl_bw_request *reqs, uint32_t n, sl_bw_table *tables) {
  sl_txn *txn = NULL;
  sl_err err;
  uint32_t n_admitted = 0, n_throttled = 0;
  sl_cap_verdict first_throttle = {0};
  /* Read, plan, price and admit each write in request order. */
  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  for (uint32_t i = 0; i < n; i++) {
    sl_bw_request *w = &reqs[i];
    sl_bw_table *wt = &tables[w->table];
    sl_item *old = sl_arena_alloc(req->arena, sizeof(*old));
    bool found;
    if ((err = sl_store_item_get(txn, wt->t, &w->kv, req->arena, old, &found, NULL)) != SL_OK)
      goto out;
    sl_write_plan_init(req, &w->plan, wt->t, &w->kv, found ? old : NULL, w->put ? &w->item : NULL);
    sl_write_plan_price(req, &w->plan, false, false);
    sl_cap_verdict v;
    if (sl_req_admit_item(req, w->plan.charges, w->plan.n_charges, &v)) {
      w->admitted = true;
      n_admitted++;
      sl_write_plan_consumed(&w->plan, &wt->consumed);
    } else {
      if (n_throttled++ == 0)
        first_throttle = v;
      wt->any_throttled = true;
    }
  }
  if (n > 0 && n_admitted == 0) {
    err = sl_req_fail_throttled(req, &first_throttle);
    goto out;
  }
  for (uint32_t i = 0; i < n; i++)
    if (reqs[i].admitted && (err = sl_write_plan_apply(req, txn, &reqs[i].plan)) != SL_OK)
      goto out;

  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err == SL_OK)
    for (uint32_t i = 0; i < n; i++)
      if (reqs[i].admitted)
        sl_write_plan_committed(req, &reqs[i].plan);
out:
  if (txn)
    sl_store_abort(txn);
  return err;
}
