/* TransactWriteItems' core; see transact_write_items.h. Pinned by
 * tests/conformance/test_transact_write_items.py and test_transaction_capacity.py. */
#include "ops/transact_write_items.h"
#include "cap/cost.h"
#include "base/log.h"
#include "cap/charge.h"

/* Reads the item, evaluates the condition, computes the new item. */
static sl_err execute_action(sl_req *req, sl_txn *txn, sl_tw_action *a) {
  sl_err err = sl_store_item_get(txn, a->t, &a->kv, req->arena, &a->old, &a->found, NULL);
  if (err != SL_OK)
    return err;
  a->read = true;
  const sl_item *oldp = a->found ? &a->old : NULL;
  if (!sl_expr_eval(a->ex.cond, oldp)) {
    a->cond_failed = true;
    return SL_OK;
  }
  if (a->kind == SL_TW_UPDATE) {
    sl_failure saved = req->fail;
    sl_failure_init(&req->fail, req->arena);
    bool nothing;
    if (sl_conds_apply_update(req, &a->ex, a->t, &a->kv, oldp, &a->next, &nothing) != SL_OK)
      a->invalid = sl_transact_take_failure(req, &saved);
    else
      req->fail = saved;
    a->removes_nothing = nothing;
    /* An empty index key value fails the whole request, not the action (the
     * live service's TransactWriteItems answer). */
    if (!a->invalid.len && !nothing)
      return sl_req_check_updated_index_keys(req, a->t, oldp, &a->next);
  }
  return SL_OK;
}

/* Plans and prices an action that reached its item: the committed write
 * (transactional) or, when the transaction is cancelled, the prepare phase. */
static void price_action(sl_req *req, sl_tw_action *a, bool cancelled) {
  const sl_item *oldp = a->found ? &a->old : NULL;
  const sl_item *newp = oldp; /* ConditionCheck, failed Update */
  if (a->kind == SL_TW_PUT)
    newp = &a->item;
  else if (a->kind == SL_TW_DELETE)
    newp = NULL;
  else if (a->kind == SL_TW_UPDATE && !a->cond_failed && !a->invalid.len)
    newp = a->removes_nothing ? NULL : &a->next;
  sl_write_plan_init(req, &a->plan, a->t, &a->kv, oldp, newp);
  sl_write_plan_price(req, &a->plan, !cancelled, cancelled);
}

/* The reasons of a cancelled transaction that passed admission. */
static void write_reasons(const sl_tw_action *acts, size_t n, sl_transact_reason *r) {
  for (size_t i = 0; i < n; i++) {
    const sl_tw_action *a = &acts[i];
    if (a->invalid.len) {
      r[i].code = "ValidationError";
      r[i].message = a->invalid;
    } else if (a->cond_failed && a->cond_code) {
      r[i].code = a->cond_code;
      r[i].message = a->cond_message;
    } else if (a->cond_failed) {
      /* DynamoDB Local ends a ConditionCheck's text with a dot and the
       * others' without (the live service's Put text has none). */
      r[i].code = "ConditionalCheckFailed";
      r[i].message = a->kind == SL_TW_CHECK ? SL_STR("The conditional request failed.")
                                            : SL_STR("The conditional request failed");
      r[i].item = a->ex.all_old_on_fail && a->found ? &a->old : NULL;
    }
  }
}

/* A recorded request sent again: the items are read (and charged) again,
 * nothing is written. */
static sl_err replay(sl_req *req, sl_txn *txn, sl_tw_action *acts, size_t n,
                     sl_transact_tables *tt) {
  sl_transact_charges *ch = SL_NEW_ARRAY(req->arena, sl_transact_charges, n);
  for (size_t i = 0; i < n; i++) {
    sl_tw_action *a = &acts[i];
    if (a->invalid.len)
      continue;
    sl_item it;
    bool found;
    size_t size = 0;
    sl_err err = sl_store_item_get(txn, a->t, &a->kv, req->arena, &it, &found, &size);
    if (err != SL_OK)
      return err;
    int64_t mu = sl_cost_read_units_mu(found ? size : 0, SL_COST_TRANSACTIONAL);
    a->read_charge =
        sl_cap_charge_key(req->arena, a->t->cap, SL_CAP_READ, a->kv.hash, a->kv.range, false, mu);
    ch[i] = (sl_transact_charges){&a->read_charge, 1};
    tt->c[a->slot].table_read_mu += mu;
  }
  sl_transact_reason *r = SL_NEW_ARRAY(req->arena, sl_transact_reason, n);
  if (!sl_transact_admit(req, ch, n, r))
    return sl_transact_cancel(req, r, n);
  return SL_OK;
}

sl_err sl_transact_write_items(sl_req *req, sl_tw_in *in, bool *replayed) {
  sl_tw_action *acts = in->acts;
  size_t n = in->n;
  sl_txn *txn = NULL;
  sl_err err;
  *replayed = false;
  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  if (in->has_token) {
    sl_transact_token_state state;
    if ((err = sl_transact_token_lookup(req, txn, in->token, in->fingerprint, &state)) != SL_OK)
      goto out;
    if (state == SL_TOKEN_REPLAY) {
      *replayed = true;
      err = replay(req, txn, acts, n, in->tt);
      goto out;
    }
  }

  /* Read, evaluate and apply (purely) every action. */
  bool cancelled = false;
  for (size_t i = 0; i < n; i++) {
    sl_tw_action *a = &acts[i];
    if (!a->invalid.len && (err = execute_action(req, txn, a)) != SL_OK)
      goto out;
    cancelled |= a->invalid.len > 0 || a->cond_failed;
  }
  /* Price and admit all of it together. */
  sl_transact_charges *ch = SL_NEW_ARRAY(req->arena, sl_transact_charges, n);
  for (size_t i = 0; i < n; i++) {
    if (!acts[i].read)
      continue;
    price_action(req, &acts[i], cancelled);
    ch[i] = (sl_transact_charges){acts[i].plan.charges, acts[i].plan.n_charges};
  }
  sl_transact_reason *r = SL_NEW_ARRAY(req->arena, sl_transact_reason, n);
  if (!sl_transact_admit(req, ch, n, r)) {
    err = sl_transact_cancel(req, r, n);
    goto out;
  }
  if (cancelled) {
    write_reasons(acts, n, r);
    err = sl_transact_cancel(req, r, n);
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    sl_tw_action *a = &acts[i];
    sl_write_plan_consumed(&a->plan, &in->tt->c[a->slot]);
    if (a->kind == SL_TW_CHECK)
      continue;
    sl_failure saved = req->fail;
    sl_failure_init(&req->fail, req->arena);
    err = sl_write_plan_apply(req, txn, &a->plan);
    if (err == SL_E_ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED) {
      /* An LSI item collection would pass its limit: this action's reason
       * (facts §1.4); the capacity stays consumed. */
      r[i].code = "ItemCollectionSizeLimitExceeded";
      r[i].message = sl_transact_take_failure(req, &saved);
      err = sl_transact_cancel(req, r, n);
      goto out;
    }
    if (err != SL_OK)
      goto out;
    req->fail = saved;
  }
  if (in->has_token &&
      (err = sl_transact_token_record(req, txn, in->token, in->fingerprint)) != SL_OK)
    goto out;
  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err == SL_OK)
    for (size_t i = 0; i < n; i++)
      if (acts[i].kind != SL_TW_CHECK)
        sl_write_plan_committed(req, &acts[i].plan);
out:
  if (txn)
    sl_store_abort(txn);
  return err;
}
