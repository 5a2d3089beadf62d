/*
 * UpdateItem — edits one item in place, creating it when absent (upsert),
 * optionally under a condition.
 * Pinned by tests/conformance/test_update_item.py, test_update_expression.py
 * and test_condition_expression.py.
 *
 * Request: TableName, Key, UpdateExpression (or legacy AttributeUpdates),
 * ConditionExpression (or Expected), ExpressionAttributeNames/Values,
 * ReturnValues (NONE | ALL_OLD | UPDATED_OLD | ALL_NEW | UPDATED_NEW),
 * ReturnValuesOnConditionCheckFailure, ReturnConsumedCapacity,
 * ReturnItemCollectionMetrics.
 *
 * apply: the new item is the update applied to the old one (or to an item of
 * just the key when there is none); an UpdateItem without any update creates
 * that key-only item. Number overflow and the 400 KB limit are checked on the
 * result. UPDATED_OLD / UPDATED_NEW return exactly the updated paths, nested
 * (the expression module projects them).
 */
#include "api/conds.h"
#include "api/write.h"

/* The key-only item a missing item starts from. */
static sl_item key_item(sl_req *req, const sl_table *t, const sl_keyvals *kv) {
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
static sl_err apply(sl_req *req, sl_write_exprs *ex, const sl_table *t, const sl_keyvals *kv,
                    const sl_item *old, sl_item *out, bool *nothing) {
  *nothing = !old && removes_only(ex->update);
  if (*nothing)
    return SL_OK;
  sl_item base = old ? *old : key_item(req, t, kv);
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
  return SL_OK;
}

sl_err sl_action_update_item(sl_req *req) {
  sl_table *t;
  sl_item key, old, item;
  sl_keyvals kv;
  sl_txn *txn = NULL;
  bool found;
  sl_write_plan plan;
  sl_write_exprs ex;
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Key"), &key);
  if (err != SL_OK)
    return err;
  if ((err = sl_conds_parse(req, req->body, SL_EXPR_OP_UPDATE_ITEM, &ex)) != SL_OK)
    return err;
  if ((err = sl_req_table(req, "TableName", SL_LOOKUP_DATA, &t)) != SL_OK)
    return err;
  if ((err = sl_req_check_key(req, t, &key, &kv)) != SL_OK)
    return err;
  if (ex.update && (err = sl_expr_update_check_keys(&ex.cx, ex.update, &t->key)) != SL_OK)
    return err;
  sl_str rv = sl_req_str(req->body, "ReturnValues");
  sl_rcc rcc = sl_req_rcc(req->body);

  if ((err = sl_store_begin(req->app->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  if ((err = sl_store_item_get(txn, t, &kv, req->arena, &old, &found, NULL)) != SL_OK)
    goto out;
  const sl_item *oldp = found ? &old : NULL;
  bool ok = sl_expr_eval(ex.cond, oldp);
  bool nothing = false;
  if (ok && (err = apply(req, &ex, t, &kv, oldp, &item, &nothing)) != SL_OK)
    goto out;
  /* A failed condition is priced by the item the request would have
   * written: the old one stands in (facts §2.2). */
  sl_write_plan_init(req, &plan, t, &kv, oldp, ok ? (nothing ? NULL : &item) : oldp);
  sl_write_plan_price(req, &plan, false, !ok);
  if ((err = sl_req_admit(req, plan.charges, plan.n_charges)) != SL_OK)
    goto out;
  if (!ok) {
    err = sl_conds_failed(req, &ex, oldp);
    goto out;
  }
  if ((err = sl_write_plan_apply(req, txn, &plan)) != SL_OK)
    goto out;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_item attrs = {NULL, 0};
  if (sl_str_eq_c(rv, "ALL_OLD") && oldp)
    attrs = old;
  else if (sl_str_eq_c(rv, "ALL_NEW") && !nothing)
    attrs = item;
  else if (sl_str_eq_c(rv, "UPDATED_OLD") && oldp && ex.update)
    attrs = sl_expr_project(req->arena, &ex.update->paths, oldp);
  else if (sl_str_eq_c(rv, "UPDATED_NEW") && ex.update && !nothing)
    attrs = sl_expr_project(req->arena, &ex.update->paths, &item);
  if (attrs.n) {
    sl_jw_key_c(w, "Attributes");
    sl_item_write_json(w, &attrs);
  }
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = {.table_name = sl_req_str(req->body, "TableName")};
    sl_write_plan_consumed(&plan, &c);
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_req_write_consumed(req, &c, rcc);
  }
  sl_jw_obj_end(w);
  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err == SL_OK)
    sl_write_plan_committed(req, &plan);
out:
  if (txn)
    sl_store_abort(txn);
  return err;
}
