/* TransactGetItems' core; see transact_get_items.h. Pinned by
 * tests/conformance/test_transact_get_items.py and test_transaction_capacity.py. */
#include "ops/transact_get_items.h"
#include "cap/charge.h"
#include "cap/cost.h"

sl_err sl_transact_get_items(sl_req *req, sl_tg_action *acts, size_t n, sl_transact_tables *tt) {
  sl_txn *txn;
  sl_err err = sl_req_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  sl_transact_charges *ch = SL_NEW_ARRAY(req->arena, sl_transact_charges, n);
  size_t payload = 0;
  for (size_t i = 0; i < n; i++) {
    sl_tg_action *a = &acts[i];
    size_t size = 0;
    if ((err = sl_store_item_get(txn, a->t, &a->kv, req->arena, &a->item, &a->found, &size)) !=
        SL_OK)
      return err;
    int64_t mu = sl_cost_read_units_mu(a->found ? size : 0, SL_COST_TRANSACTIONAL);
    a->charge =
        sl_cap_charge_key(req->arena, a->t->cap, SL_CAP_READ, a->kv.hash, a->kv.range, false, mu);
    ch[i] = (sl_transact_charges){&a->charge, 1};
    tt->c[a->slot].table_read_mu += mu;
    if (a->found) {
      a->projected = sl_reads_project(req, &a->ex, &a->item);
      payload += sl_item_size(&a->projected);
    }
  }
  if (payload > SL_TRANSACT_MAX_BYTES)
    return sl_fail(req, SL_E_VALIDATION, "Payload in response is too large.%zu", payload);
  sl_transact_reason *r = SL_NEW_ARRAY(req->arena, sl_transact_reason, n);
  if (!sl_transact_admit(req, ch, n, r))
    return sl_transact_cancel(req, r, n);
  return SL_OK;
}
