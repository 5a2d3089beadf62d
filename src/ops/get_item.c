/* GetItem's core; see get_item.h. Pinned by tests/conformance/test_get_item.py. */
#include "ops/get_item.h"
#include "cap/cost.h"
#include "cap/charge.h"

sl_err sl_get_item(sl_req *req, const sl_get_item_in *in, sl_get_item_out *out) {
  sl_txn *txn;
  size_t size;
  sl_item item;
  sl_err err = sl_req_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  if ((err = sl_store_item_get(txn, in->t, &in->kv, req->arena, &item, &out->found, &size)) !=
      SL_OK)
    return err;
  out->read_mu = sl_cost_read_units_mu(size, in->consistent ? SL_COST_STRONG : SL_COST_EVENTUAL);
  sl_cap_charge charge = sl_cap_charge_key(req->arena, in->t->cap, SL_CAP_READ, in->kv.hash,
                                           in->kv.range, false, out->read_mu);
  out->size = out->found ? size : 0;
  if (!in->preview && (err = sl_req_admit(req, &charge, 1)) != SL_OK)
    return err;
  /* A projection that selects nothing returns an empty Item. */
  if (out->found)
    out->item = sl_reads_project(req, in->ex, &item);
  return SL_OK;
}
