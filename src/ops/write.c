/* Planned item writes: costs, charges, application; see write.h. */
#include "ops/write.h"
#include "ops/conds.h"
#include "base/log.h"
#include "cap/charge.h"
#include "cap/cost.h"

sl_err sl_write_begin(sl_req *req, const sl_table *t, const sl_keyvals *kv, sl_txn **txn,
                      sl_item *old, const sl_item **oldp) {
  bool found;
  sl_err err = sl_store_begin(req->env->store, true, &req->fail, txn);
  if (err != SL_OK)
    return err;
  if ((err = sl_store_item_get(*txn, t, kv, req->arena, old, &found, NULL)) != SL_OK) {
    sl_store_abort(*txn);
    return err;
  }
  *oldp = found ? old : NULL;
  return SL_OK;
}

void sl_write_plan_init(sl_req *req, sl_write_plan *p, sl_table *t, const sl_keyvals *kv,
                        const sl_item *old, const sl_item *item) {
  memset(p, 0, sizeof(*p));
  p->t = t;
  p->old = old;
  p->item = item;
  p->kv = *kv;
  /* The table's charge, placed now and priced by sl_write_plan_price. */
  p->charges[0] =
      sl_cap_charge_key(req->arena, t->cap, SL_CAP_WRITE, p->kv.hash, p->kv.range, false, 0);
}

void sl_write_plan_price(sl_req *req, sl_write_plan *p, bool transactional, bool condition_failed) {
  sl_table *t = p->t;
  size_t old_size = p->old ? sl_item_size(p->old) : 0;
  size_t new_size = p->item ? sl_item_size(p->item) : 0;
  /* facts §2.2: the larger of the two images; a failed conditional write
   * the new item's size when an item exists, else 1 unit (cap/cost.h). */
  p->table_only_mu = sl_cost_table_write_mu(old_size, new_size, condition_failed, transactional);
  p->table_mu = p->table_only_mu;
  p->n_charges = 0;
  sl_cap_charge *tc = &p->charges[p->n_charges++];
  if (!condition_failed && t->n_indexes) {
    SL_ASSERT(t->n_indexes <= SL_MAX_INDEXES);
    sl_store_index_changes(req->arena, t, p->old, p->item, p->changes);
    for (uint32_t i = 0; i < t->n_indexes; i++) {
      const sl_index_change *c = &p->changes[i];
      sl_cost_index_change cc = {.had = c->had,
                                 .has = c->has,
                                 .key_changed = c->key_changed,
                                 .changed = c->changed,
                                 .old_size = c->old_size,
                                 .new_size = c->new_size};
      int64_t mu = sl_cost_index_write_mu(&cc, transactional);
      p->index_mu[i] = mu;
      const sl_index *x = &t->indexes[i];
      if (!x->global) {
        p->table_mu += mu;
        continue;
      }
      if (mu == 0 || !x->cap)
        continue;
      /* A GSI write lands on the partition of the index key (the new one, or
       * the old one for a removal). */
      const sl_keyvals *ik = c->has ? &c->new_key : &c->old_key;
      p->charges[p->n_charges++] = sl_cap_charge_index(req->arena, x->cap, SL_CAP_WRITE, ik, mu);
    }
  }
  tc->cost_mu = p->table_mu;
}

void sl_write_plan_consumed(const sl_write_plan *p, sl_consumed *c) {
  c->table_write_mu += p->table_only_mu;
  for (uint32_t i = 0; i < p->t->n_indexes; i++)
    if (p->index_mu[i])
      sl_consumed_add_index(c, p->t->indexes[i].name, p->t->indexes[i].global, 0, p->index_mu[i]);
}

sl_err sl_write_plan_apply(sl_req *req, sl_txn *txn, sl_write_plan *p) {
  sl_store_change c = {.t = p->t,
                       .key = &p->kv,
                       .old = p->old,
                       .item = p->item,
                       .collection_max =
                           sl_cap_params_of(req->env->cap)->item_collection_max_bytes};
  sl_err err = sl_store_apply(txn, &c, req->arena, &req->fail);
  p->has_collection = c.has_collection;
  p->collection_bytes = c.collection_bytes;
  return err;
}

void sl_write_plan_committed(sl_req *req, sl_write_plan *p) {
  sl_store_item_account(p->t, p->old, p->item, req->arena);
  int64_t delta =
      (int64_t)(p->item ? sl_item_size(p->item) : 0) - (int64_t)(p->old ? sl_item_size(p->old) : 0);
  if (delta && p->t->cap)
    sl_cap_note_bytes(req->env->cap, p->t->cap, p->charges[0].hash, p->charges[0].sort, delta);
}

sl_err sl_write_plan_finish(sl_req *req, sl_txn *txn, sl_write_plan *p, bool cond_ok,
                            const sl_write_exprs *cond, const sl_item *old, const sl_item *attrs,
                            sl_write_result *out) {
  memset(out, 0, sizeof(*out));
  if (p->preview) {
    sl_cap_verdict v;
    out->would_throttle = !sl_cap_check(req->env->cap, p->charges, p->n_charges, &v);
    out->cond_failed = !cond_ok;
    out->old_bytes = p->old ? sl_item_size(p->old) : 0;
    out->new_bytes = p->item && cond_ok ? sl_item_size(p->item) : 0;
    sl_write_plan_consumed(p, &out->consumed);
    sl_store_abort(txn);
    return SL_OK;
  }
  sl_err err = sl_req_admit(req, p->charges, p->n_charges);
  if (err != SL_OK)
    goto out;
  if (!cond_ok) {
    /* A failed condition still costs: its units are reported too (a
     * BatchExecuteStatement entry's ConsumedCapacity). */
    sl_write_plan_consumed(p, &out->consumed);
    err = sl_conds_failed(req, cond, old);
    goto out;
  }
  if ((err = sl_write_plan_apply(req, txn, p)) != SL_OK)
    goto out;
  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err != SL_OK)
    goto out;
  sl_write_plan_committed(req, p);
  if (attrs)
    out->attributes = *attrs;
  sl_write_plan_consumed(p, &out->consumed);
out:
  if (txn)
    sl_store_abort(txn);
  return err;
}
