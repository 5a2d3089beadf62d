/*
 * GetItem — reads one item by its full key.
 * Pinned by tests/conformance/test_get_item.py and test_item_size.py.
 *
 * Request: TableName, Key, ConsistentRead, ProjectionExpression (or legacy
 * AttributesToGet) with ExpressionAttributeNames, ReturnConsumedCapacity.
 * Cost (facts §2.2): the item's size rounded up to 4 KB, 1 unit per 4 KB
 * strongly consistent, half eventually consistent; a missing item still
 * costs the minimum.
 */
#include "actions/actions.h"
#include "cap/charge.h"
#include "ops/reads.h"
#include "store/key.h"

sl_err sl_action_get_item(sl_req *req) {
  sl_table *t;
  sl_item key, item;
  sl_keyvals kv;
  sl_txn *txn = NULL;
  bool found;
  size_t size;
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(req->body, "Key"), &key);
  if (err != SL_OK)
    return err;
  sl_read_exprs ex;
  if ((err = sl_reads_parse(req, NULL, NULL, SL_READS_GET, &ex)) != SL_OK)
    return err;
  if ((err = sl_req_table(req, "TableName", SL_LOOKUP_DATA, &t)) != SL_OK)
    return err;
  if ((err = sl_req_check_key(req, t, &key, &kv)) != SL_OK)
    return err;
  bool consistent = sl_req_bool(req->body, "ConsistentRead", false);
  sl_rcc rcc = sl_req_rcc(req->body);

  if ((err = sl_store_begin(req->env->store, false, &req->fail, &txn)) != SL_OK)
    return err;
  if ((err = sl_store_item_get(txn, t, &kv, req->arena, &item, &found, &size)) != SL_OK)
    goto out;
  int64_t mu = sl_cost_read_mu(size, consistent);
  sl_cap_charge charge =
      sl_cap_charge_key(req->arena, t->cap, SL_CAP_READ, kv.hash, kv.range, false, mu);
  if ((err = sl_req_admit(req, &charge, 1)) != SL_OK)
    goto out;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  if (found) {
    /* A projection that selects nothing returns an empty Item. */
    sl_item p = sl_reads_project(req, &ex, &item);
    sl_jw_key_c(w, "Item");
    sl_item_write_json(w, &p);
  }
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = {.table_name = sl_req_str(req->body, "TableName"), .table_read_mu = mu};
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_req_write_consumed(req, &c, rcc);
  }
  sl_jw_obj_end(w);
out:
  if (txn)
    sl_store_abort(txn);
  return err;
}
