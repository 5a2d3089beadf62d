/* BatchGetItem's core; see batch_get_item.h. Pinned by
 * tests/conformance/test_batch_get_item.py and test_batch_capacity.py. */
#include "ops/batch_get_item.h"
#include "cap/charge.h"
#include "cap/cost.h"

sl_err sl_batch_get_item(sl_req *req, sl_bg_table *tables, uint32_t n_tables, sl_bg_key *keys,
                         uint32_t n) {
  uint32_t n_read = 0, n_throttled = 0;
  sl_cap_verdict first_throttle = {0};
  /* Read, price and admit each key in request order. */
  sl_txn *txn;
  sl_err err = sl_req_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  size_t bytes = 0;
  bool full = false;
  for (uint32_t i = 0; i < n; i++) {
    sl_bg_key *g = &keys[i];
    sl_bg_table *gt = &tables[g->table];
    g->state = SL_BG_UNPROCESSED;
    if (full)
      continue;
    sl_item item;
    size_t size;
    if ((err = sl_store_item_get(txn, gt->t, &g->kv, req->arena, &item, &g->found, &size)) != SL_OK)
      return err;
    if (g->found && bytes + size > SL_BATCH_GET_MAX_BYTES) {
      full = true;
      continue;
    }
    int64_t mu = sl_cost_read_units_mu(g->found ? size : 0,
                                       gt->consistent ? SL_COST_STRONG : SL_COST_EVENTUAL);
    sl_cap_charge charge =
        sl_cap_charge_key(req->arena, gt->t->cap, SL_CAP_READ, g->kv.hash, g->kv.range, false, mu);
    sl_cap_verdict v;
    if (!sl_req_admit_item(req, &charge, 1, &v)) {
      if (n_throttled++ == 0)
        first_throttle = v;
      continue;
    }
    g->state = SL_BG_READ;
    n_read++;
    if (g->found) {
      g->item = sl_reads_project(req, &gt->ex, &item);
      bytes += size;
    }
    gt->consumed.table_read_mu += mu;
  }
  if (n > 0 && n_read == 0)
    return sl_req_fail_throttled(req, &first_throttle);
  for (uint32_t ti = 0; ti < n_tables; ti++)
    tables[ti].consumed.table_name = tables[ti].given;
  for (uint32_t i = 0; i < n; i++)
    if (keys[i].state == SL_BG_UNPROCESSED)
      tables[keys[i].table].any_unprocessed = true;
  return SL_OK;
}
