/*
 * TransactWriteItems — up to 100 Put, Update, Delete and ConditionCheck
 * actions over one or more tables, applied all together or not at all.
 * Pinned by tests/conformance/test_transact_write_items.py and
 * test_transaction_capacity.py; the shared rules are in ops/txn.h.
 *
 * Request: TransactItems [{Put | Update | Delete | ConditionCheck: {...}}]
 * (each action has the members of its single-item operation that the model
 * gives it: TableName, Item or Key, ConditionExpression, UpdateExpression,
 * ExpressionAttributeNames/Values, ReturnValuesOnConditionCheckFailure),
 * ClientRequestToken, ReturnConsumedCapacity, ReturnItemCollectionMetrics
 * (SIZE: the item collections written on tables with LSIs, per table, as
 * BatchWriteItem reports them; an LSI collection over its limit cancels the
 * transaction with that action's ItemCollectionSizeLimitExceeded).
 *
 * Order of checks (live service where recorded, else DynamoDB Local):
 *  1. action by action, in request order: exactly one action type ("Invalid
 *     Request: TransactWriteRequest should contain Delete or Put or Update
 *     request", "TransactItems can only contain one of Check, Put, Update or
 *     Delete"), its item or key values, a Put item's 400 KB, its expressions
 *     (all of PutItem's / UpdateItem's checks, in their order);
 *  2. every table exists (ResourceNotFoundException);
 *  3. each key against its table: empty or oversized key values fail the
 *     request; a key or item of the wrong shape, or an update of a key
 *     attribute, becomes that action's ValidationError;
 *  4. no two actions on one item ("Transaction request cannot include
 *     multiple operations on one item");
 *  5. the aggregate size: Put items and the other actions' keys together at
 *     most 4 MB ("Transaction payload size cannot exceed 4MB. Payload Size:
 *     N", DynamoDB Local's text).
 * Then the core (ops/transact_write_items.h: token, reads, conditions,
 * updates, pricing, all-or-nothing admission, cancellation or apply and
 * commit) and the reply: ConsumedCapacity and, with SIZE, the item
 * collections written.
 */
#include "actions/actions.h"
#include "ops/transact_write_items.h"
#include "base/log.h"

static const char *const kind_names[] = {"ConditionCheck", "Put", "Delete", "Update"};

/* Step 1 for one element of TransactItems. */
static sl_err parse_action(sl_req *req, const sl_json *elem, sl_tw_action *a) {
  int n_kinds = 0;
  for (int k = 0; k < 4; k++) {
    if (elem && elem->type == SL_JSON_OBJECT && sl_in_has(elem, kind_names[k])) {
      n_kinds++;
      a->kind = (sl_tw_kind)k;
    }
  }
  if (n_kinds == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: TransactWriteRequest should contain Delete or Put or Update "
                   "request");
  if (n_kinds > 1)
    return sl_fail(req, SL_E_VALIDATION,
                   "TransactItems can only contain one of Check, Put, Update or Delete");
  a->obj = sl_in_transact_action(req, elem, kind_names[a->kind]);
  if (!a->obj)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: TransactWriteRequest should contain Delete or Put or Update "
                   "request");
  bool put = a->kind == SL_TW_PUT;
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(a->obj, put ? "Item" : "Key"),
                                 &a->item);
  if (err != SL_OK)
    return err;
  if (put && sl_item_size(&a->item) > SL_ITEM_MAX_BYTES)
    return sl_fail(req, SL_E_VALIDATION, "Item size has exceeded the maximum allowed size");
  return sl_conds_parse(
      req, a->obj, a->kind == SL_TW_UPDATE ? SL_EXPR_OP_UPDATE_ITEM : SL_EXPR_OP_PUT_ITEM, &a->ex);
}

/* Step 3 for one action: its key against its table. */
static sl_err check_action(sl_req *req, sl_tw_action *a) {
  sl_err err = a->kind == SL_TW_PUT
                   ? sl_transact_check_item(req, a->t, &a->item, &a->kv, &a->invalid)
                   : sl_transact_check_key(req, a->t, &a->item, &a->kv, &a->invalid);
  if (err != SL_OK || a->invalid.len)
    return err;
  if (a->kind == SL_TW_UPDATE && a->ex.update) {
    sl_failure saved = req->fail;
    sl_failure_init(&req->fail, req->arena);
    if (sl_expr_update_check_keys(&a->ex.cx, a->ex.update, &a->t->key) != SL_OK)
      a->invalid = sl_transact_take_failure(req, &saved);
    else
      req->fail = saved;
  }
  if (!a->invalid.len) {
    sl_buf b;
    sl_buf_init(&b, req->arena);
    sl_store_item_key(&b, a->t, &a->kv);
    a->storage_key = sl_buf_str(&b);
  }
  return SL_OK;
}

/* ItemCollectionMetrics: per table (of those with LSIs), the collection of
 * each item written, in request order (BatchWriteItem's shape). */
static void write_collections(sl_req *req, const sl_tw_action *acts, size_t n,
                              const sl_transact_tables *tt) {
  sl_jw *w = &req->w;
  bool any = false;
  for (uint32_t s = 0; s < tt->n; s++) {
    bool listed = false;
    for (size_t i = 0; i < n; i++) {
      const sl_tw_action *a = &acts[i];
      if (a->slot != s || a->kind == SL_TW_CHECK || !a->plan.has_collection)
        continue;
      if (!any) {
        sl_jw_key_c(w, "ItemCollectionMetrics");
        sl_jw_obj_begin(w);
        any = true;
      }
      if (!listed) {
        sl_jw_key(w, tt->c[s].table_name);
        sl_jw_arr_begin(w);
        listed = true;
      }
      sl_reply_collection(w, &a->plan);
    }
    if (listed)
      sl_jw_arr_end(w);
  }
  if (any)
    sl_jw_obj_end(w);
}

sl_err sl_action_transact_write_items(sl_req *req) {
  const sl_json *items = sl_json_get(req->body, "TransactItems");
  size_t n = items && items->type == SL_JSON_ARRAY ? items->arr.n : 0;
  SL_ASSERT(n >= 1 && n <= SL_TRANSACT_MAX_ACTIONS); /* the validator's bounds */
  sl_tw_action *acts = SL_NEW_ARRAY(req->arena, sl_tw_action, n);
  sl_err err;

  /* 1. Shapes, values and expressions, action by action. */
  for (size_t i = 0; i < n; i++)
    if ((err = parse_action(req, items->arr.items[i], &acts[i])) != SL_OK)
      return err;
  /* 2. Tables. */
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
  /* 3. Keys against their tables. */
  for (size_t i = 0; i < n; i++)
    if ((err = check_action(req, &acts[i])) != SL_OK)
      return err;
  /* 4. One action per item. */
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i && acts[i].storage_key.len; j++)
      if (sl_str_eq(acts[i].storage_key, acts[j].storage_key))
        return sl_fail(req, SL_E_VALIDATION,
                       "Transaction request cannot include multiple operations on one item");
  /* 5. The aggregate size. */
  size_t payload = 0;
  for (size_t i = 0; i < n; i++)
    payload += sl_item_size(&acts[i].item);
  if (payload > SL_TRANSACT_MAX_BYTES)
    return sl_fail(req, SL_E_VALIDATION,
                   "Transaction payload size cannot exceed 4MB. Payload Size: %zu", payload);
  sl_tw_in in = {.acts = acts,
                 .n = n,
                 .tt = &tt,
                 .has_token = sl_in_has(req->body, "ClientRequestToken"),
                 .token = sl_in_str(req->body, "ClientRequestToken")};
  if (in.has_token)
    sl_in_fingerprint(req, items, in.fingerprint);

  bool replayed;
  if ((err = sl_transact_write_items(req, &in, &replayed)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_reply_transact_consumed(&req->w, &tt, sl_in_rcc(req->body));
  if (!replayed && sl_str_eq_c(sl_in_str(req->body, "ReturnItemCollectionMetrics"), "SIZE"))
    write_collections(req, acts, n, &tt);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
