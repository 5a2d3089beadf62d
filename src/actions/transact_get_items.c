/*
 * TransactGetItems — up to 100 Get actions over one or more tables, read
 * together as one serializable snapshot and admitted all or nothing.
 * Pinned by tests/conformance/test_transact_get_items.py and
 * test_transaction_capacity.py; the shared rules are in ops/txn.h.
 *
 * Request: TransactItems [{Get: {TableName, Key, ProjectionExpression,
 * ExpressionAttributeNames}}], ReturnConsumedCapacity.
 *
 * Order of checks: action by action, its key values and projection (GetItem's
 * checks and messages); then every table (ResourceNotFoundException); then
 * each key against its table (empty or oversized values fail the request, a
 * key of the wrong shape is the action's ValidationError, which cancels the
 * transaction before anything is read); then no two actions on one item
 * ("Transaction request cannot include multiple operations on one item").
 *
 * Then the core (ops/transact_get_items.h: snapshot reads, pricing, the 4 MB
 * response limit, all-or-nothing admission) and the reply.
 *
 * Reply: Responses in request order, {"Item": ...} for an item found (a
 * projection that selects nothing gives an empty Item, as GetItem does) and {}
 * for a missing one; ConsumedCapacity, one entry per table, with
 * ReadCapacityUnits.
 */
#include "actions/actions.h"
#include "ops/transact_get_items.h"
#include "base/log.h"

/* Key values and projection of one element of TransactItems. */
static sl_err parse_action(sl_req *req, const sl_json *elem, sl_tg_action *a) {
  a->obj = sl_in_transact_action(req, elem, "Get");
  if (!a->obj)
    /* The validator has already required Get; kept for a Get that is not an
     * object, which it reports first as well. */
    return sl_fail(req, SL_E_VALIDATION, "Invalid Request: TransactGetItem should contain a Get");
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(a->obj, "Key"), &a->key);
  if (err != SL_OK)
    return err;
  /* A Get has GetItem's member names. */
  return sl_reads_parse_of(req, a->obj, false, SL_READS_GET, &a->ex);
}

sl_err sl_action_transact_get_items(sl_req *req) {
  const sl_json *items = sl_json_get(req->body, "TransactItems");
  size_t n = items && items->type == SL_JSON_ARRAY ? items->arr.n : 0;
  SL_ASSERT(n >= 1 && n <= SL_TRANSACT_MAX_ACTIONS); /* the validator's bounds */
  sl_tg_action *acts = SL_NEW_ARRAY(req->arena, sl_tg_action, n);
  sl_transact_reason *r = SL_NEW_ARRAY(req->arena, sl_transact_reason, n);
  sl_err err;

  for (size_t i = 0; i < n; i++)
    if ((err = parse_action(req, items->arr.items[i], &acts[i])) != SL_OK)
      return err;
  sl_table *first = NULL;
  sl_transact_tables tt;
  sl_transact_tables_init(req, &tt, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    err = sl_in_table_of(req, acts[i].obj, "TableName", SL_LOOKUP_DATA, &acts[i].t);
    if (err != SL_OK)
      return err;
    if (!first)
      first = acts[i].t;
    acts[i].slot = sl_transact_tables_slot(&tt, acts[i].t, sl_in_str(acts[i].obj, "TableName"));
  }
  req->table = first;
  bool any_invalid = false;
  for (size_t i = 0; i < n; i++) {
    sl_tg_action *a = &acts[i];
    if ((err = sl_reads_bind(req, a->t, NULL, &a->ex)) != SL_OK)
      return err;
    if ((err = sl_transact_check_key(req, a->t, &a->key, &a->kv, &a->invalid)) != SL_OK)
      return err;
    if (a->invalid.len) {
      any_invalid = true;
      continue;
    }
    sl_buf b;
    sl_buf_init(&b, req->arena);
    sl_store_item_key(&b, a->t, &a->kv);
    a->storage_key = sl_buf_str(&b);
    for (size_t j = 0; j < i; j++)
      if (sl_str_eq(a->storage_key, acts[j].storage_key))
        return sl_fail(req, SL_E_VALIDATION,
                       "Transaction request cannot include multiple operations on one item");
  }
  if (any_invalid) {
    for (size_t i = 0; i < n; i++) {
      if (acts[i].invalid.len) {
        r[i].code = "ValidationError";
        r[i].message = acts[i].invalid;
      }
    }
    return sl_transact_cancel(req, r, n);
  }
  if ((err = sl_transact_get_items(req, acts, n, &tt)) != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_reply_transact_consumed(&req->w, &tt, sl_in_rcc(req->body));
  sl_jw_key_c(w, "Responses");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < n; i++) {
    sl_jw_obj_begin(w);
    if (acts[i].found) {
      sl_jw_key_c(w, "Item");
      sl_item_write_json(w, &acts[i].projected);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
