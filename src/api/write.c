/* Planned item writes: costs, charges, application; see write.h. */
#include "api/write.h"
#include "base/log.h"
#include "store/key.h"

void sl_write_plan_init(sl_req *req, sl_write_plan *p, sl_table *t, const sl_keyvals *kv,
                        const sl_item *old, const sl_item *item) {
  memset(p, 0, sizeof(*p));
  p->t = t;
  p->old = old;
  p->item = item;
  p->kv = *kv;
  p->hash = sl_key_hash(kv->hash);
  if (kv->range) {
    sl_buf b;
    sl_buf_init(&b, req->arena);
    sl_key_put_component(&b, kv->range, SL_KEY_SK_MAX);
    p->sort_enc = sl_buf_str(&b);
  }
}

static int64_t index_entry_mu(size_t bytes) { return sl_cost_write_mu(bytes); }

void sl_write_plan_price(sl_req *req, sl_write_plan *p, bool transactional, bool condition_failed) {
  sl_table *t = p->t;
  int64_t mult = transactional ? 2 : 1;
  size_t old_size = p->old ? sl_item_size(p->old) : 0;
  size_t new_size = p->item ? sl_item_size(p->item) : 0;
  if (condition_failed) {
    /* facts §2.2: a failed conditional write costs the new item's size when
     * an item exists, else 1 unit. */
    p->table_only_mu =
        mult * (p->old ? sl_cost_write_mu(new_size ? new_size : old_size) : sl_cost_write_mu(0));
  } else {
    p->table_only_mu = mult * sl_cost_write_mu(old_size > new_size ? old_size : new_size);
  }
  p->table_mu = p->table_only_mu;
  p->n_charges = 0;
  sl_cap_charge *tc = &p->charges[p->n_charges++];
  if (!condition_failed && t->n_indexes) {
    SL_ASSERT(t->n_indexes <= SL_MAX_INDEXES);
    sl_store_index_changes(req->arena, t, p->old, p->item, p->changes);
    for (uint32_t i = 0; i < t->n_indexes; i++) {
      const sl_index_change *c = &p->changes[i];
      int64_t mu = 0;
      if (c->had && c->has) {
        if (c->key_changed)
          mu = index_entry_mu(c->old_size) + index_entry_mu(c->new_size);
        else if (c->changed)
          mu = index_entry_mu(c->new_size);
      } else if (c->had) {
        mu = index_entry_mu(c->old_size);
      } else if (c->has) {
        mu = index_entry_mu(c->new_size);
      }
      mu *= mult;
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
      sl_cap_charge *gc = &p->charges[p->n_charges++];
      gc->res = x->cap;
      gc->dir = SL_CAP_WRITE;
      gc->hash = sl_key_hash(ik->hash);
      if (ik->range) {
        sl_buf b;
        sl_buf_init(&b, req->arena);
        sl_key_put_component(&b, ik->range, SL_KEY_INDEX_SK_MAX);
        gc->sort = sl_buf_str(&b);
      }
      gc->cost_mu = mu;
    }
  }
  tc->res = t->cap;
  tc->dir = SL_CAP_WRITE;
  tc->hash = p->hash;
  tc->sort = p->sort_enc;
  tc->cost_mu = p->table_mu;
}

void sl_write_plan_consumed(const sl_write_plan *p, sl_consumed *c) {
  c->table_write_mu += p->table_only_mu;
  for (uint32_t i = 0; i < p->t->n_indexes; i++)
    if (p->index_mu[i])
      sl_consumed_add_index(c, p->t->indexes[i].name, p->t->indexes[i].global, 0, p->index_mu[i]);
}

sl_err sl_write_plan_apply(sl_req *req, sl_txn *txn, sl_write_plan *p) {
  if (p->item)
    return sl_store_item_put(txn, p->t, p->old, p->item, req->arena, &req->fail);
  if (p->old)
    return sl_store_item_delete(txn, p->t, p->old, req->arena, &req->fail);
  return SL_OK;
}

void sl_write_plan_committed(sl_req *req, sl_write_plan *p) {
  sl_store_item_account(p->t, p->old, p->item, req->arena);
  int64_t delta =
      (int64_t)(p->item ? sl_item_size(p->item) : 0) - (int64_t)(p->old ? sl_item_size(p->old) : 0);
  if (delta && p->t->cap)
    sl_cap_note_bytes(req->app->cap, p->t->cap, p->hash, p->sort_enc, delta);
}
