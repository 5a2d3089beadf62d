/*
 * TransactWriteItems — up to 100 Put, Update, Delete and ConditionCheck
 * actions over one or more tables, applied all together or not at all.
 * Pinned by tests/conformance/test_transact_write_items.py and
 * test_transaction_capacity.py; the shared rules are in api/txn.h.
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
 * Then, in one LMDB write transaction: the ClientRequestToken (a replay of a
 * recorded request is answered without executing it again, a different
 * request with a recorded token is IdempotentParameterMismatchException);
 * every item is read, every condition evaluated, every new item computed (an
 * update that cannot apply to the stored item is the action's
 * ValidationError: the live service's cancellation codes, facts §1.4).
 *
 * Capacity (facts §2.2, api/write.h):
 *  - success: each action costs a transactional write, twice the single
 *    write of its item (a ConditionCheck too: 2 units per KB of the checked
 *    item, billed as write, as the live service does), with its index writes;
 *  - cancelled for a condition or a ValidationError: each action that reached
 *    its item costs one write as a failed conditional write does — the
 *    prepare phase of the two ("one to prepare the transaction and one to
 *    commit", DG transaction-apis). This choice is sluice's: AWS publishes no
 *    figure for cancelled transactions;
 *  - all charges are admitted together (api/txn.h); a throttle wins over a
 *    failed condition, as in PutItem, and cancels the transaction with
 *    ThrottlingError / ProvisionedThroughputExceeded for the throttled
 *    actions and None for the others, nothing written, nothing charged;
 *  - a replayed ClientRequestToken reads the items again: a transactional
 *    read of each (2 units per 4 KB), reported as ReadCapacityUnits (DG
 *    transaction-apis "Idempotency"; live observation of 4 write units, then
 *    2 read units, for a 1.5 KB item).
 */
#include "actions/actions.h"
#include "cap/charge.h"
#include "ops/conds.h"
#include "ops/txn.h"
#include "ops/write.h"
#include "base/log.h"
#include "store/key.h"

typedef enum { ACT_CHECK = 0, ACT_PUT, ACT_DELETE, ACT_UPDATE } act_kind;

static const char *const kind_names[] = {"ConditionCheck", "Put", "Delete", "Update"};

typedef struct {
  act_kind kind;
  const sl_json *obj; /* the action's members */
  sl_item item;       /* a Put's Item; the Key of the others */
  sl_write_exprs ex;
  sl_table *t;
  uint32_t slot; /* ConsumedCapacity entry */
  sl_keyvals kv;
  sl_str storage_key;
  sl_str invalid; /* the action's ValidationError, if any */
  /* execution */
  bool read; /* the item was read */
  bool found;
  sl_item old;
  sl_item next;         /* an Update's new item */
  bool removes_nothing; /* an Update that only removes from an absent item: no write */
  bool cond_failed;
  sl_write_plan plan;
  sl_cap_charge read_charge; /* a replay's read */
} action;

/* Step 1 for one element of TransactItems. */
static sl_err parse_action(sl_req *req, const sl_json *elem, action *a) {
  int n_kinds = 0;
  for (int k = 0; k < 4; k++) {
    if (elem && elem->type == SL_JSON_OBJECT && sl_req_has(elem, kind_names[k])) {
      n_kinds++;
      a->kind = (act_kind)k;
    }
  }
  if (n_kinds == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: TransactWriteRequest should contain Delete or Put or Update "
                   "request");
  if (n_kinds > 1)
    return sl_fail(req, SL_E_VALIDATION,
                   "TransactItems can only contain one of Check, Put, Update or Delete");
  a->obj = sl_transact_action(req, elem, kind_names[a->kind]);
  if (!a->obj)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: TransactWriteRequest should contain Delete or Put or Update "
                   "request");
  bool put = a->kind == ACT_PUT;
  sl_err err = sl_item_from_json(&req->fail, req->arena, sl_json_get(a->obj, put ? "Item" : "Key"),
                                 &a->item);
  if (err != SL_OK)
    return err;
  if (put && sl_item_size(&a->item) > SL_ITEM_MAX_BYTES)
    return sl_fail(req, SL_E_VALIDATION, "Item size has exceeded the maximum allowed size");
  return sl_conds_parse(
      req, a->obj, a->kind == ACT_UPDATE ? SL_EXPR_OP_UPDATE_ITEM : SL_EXPR_OP_PUT_ITEM, &a->ex);
}

/* Step 3 for one action: its key against its table. */
static sl_err check_action(sl_req *req, action *a) {
  sl_err err = a->kind == ACT_PUT ? sl_transact_check_item(req, a->t, &a->item, &a->kv, &a->invalid)
                                  : sl_transact_check_key(req, a->t, &a->item, &a->kv, &a->invalid);
  if (err != SL_OK || a->invalid.len)
    return err;
  if (a->kind == ACT_UPDATE && a->ex.update) {
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

/* Reads the item, evaluates the condition, computes the new item. */
static sl_err execute_action(sl_req *req, sl_txn *txn, action *a) {
  sl_err err = sl_store_item_get(txn, a->t, &a->kv, req->arena, &a->old, &a->found, NULL);
  if (err != SL_OK)
    return err;
  a->read = true;
  const sl_item *oldp = a->found ? &a->old : NULL;
  if (!sl_expr_eval(a->ex.cond, oldp)) {
    a->cond_failed = true;
    return SL_OK;
  }
  if (a->kind == ACT_UPDATE) {
    sl_failure saved = req->fail;
    sl_failure_init(&req->fail, req->arena);
    bool nothing;
    if (sl_conds_apply_update(req, &a->ex, a->t, &a->kv, oldp, &a->next, &nothing) != SL_OK)
      a->invalid = sl_transact_take_failure(req, &saved);
    else
      req->fail = saved;
    a->removes_nothing = nothing;
  }
  return SL_OK;
}

/* Plans and prices an action that reached its item: the committed write
 * (transactional) or, when the transaction is cancelled, the prepare phase. */
static void price_action(sl_req *req, action *a, bool cancelled) {
  const sl_item *oldp = a->found ? &a->old : NULL;
  const sl_item *newp = oldp; /* ConditionCheck, failed Update */
  if (a->kind == ACT_PUT)
    newp = &a->item;
  else if (a->kind == ACT_DELETE)
    newp = NULL;
  else if (a->kind == ACT_UPDATE && !a->cond_failed && !a->invalid.len)
    newp = a->removes_nothing ? NULL : &a->next;
  sl_write_plan_init(req, &a->plan, a->t, &a->kv, oldp, newp);
  sl_write_plan_price(req, &a->plan, !cancelled, cancelled);
}

/* The reasons of a cancelled transaction that passed admission. */
static void write_reasons(const action *acts, size_t n, sl_transact_reason *r) {
  for (size_t i = 0; i < n; i++) {
    const action *a = &acts[i];
    if (a->invalid.len) {
      r[i].code = "ValidationError";
      r[i].message = a->invalid;
    } else if (a->cond_failed) {
      /* DynamoDB Local ends a ConditionCheck's text with a dot and the
       * others' without (the live service's Put text has none). */
      r[i].code = "ConditionalCheckFailed";
      r[i].message = a->kind == ACT_CHECK ? SL_STR("The conditional request failed.")
                                          : SL_STR("The conditional request failed");
      r[i].item = a->ex.all_old_on_fail && a->found ? &a->old : NULL;
    }
  }
}

/* ItemCollectionMetrics: per table (of those with LSIs), the collection of
 * each item written, in request order (BatchWriteItem's shape). */
static void write_collections(sl_req *req, const action *acts, size_t n,
                              const sl_transact_tables *tt) {
  sl_jw *w = &req->w;
  bool any = false;
  for (uint32_t s = 0; s < tt->n; s++) {
    bool listed = false;
    for (size_t i = 0; i < n; i++) {
      const action *a = &acts[i];
      if (a->slot != s || a->kind == ACT_CHECK || !a->plan.has_collection)
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
      sl_write_plan_write_collection(w, &a->plan);
    }
    if (listed)
      sl_jw_arr_end(w);
  }
  if (any)
    sl_jw_obj_end(w);
}

/* A recorded request sent again: the items are read (and charged) again,
 * nothing is written. */
static sl_err replay(sl_req *req, sl_txn *txn, action *acts, size_t n, sl_transact_tables *tt,
                     sl_rcc rcc) {
  sl_transact_charges *ch = SL_NEW_ARRAY(req->arena, sl_transact_charges, n);
  for (size_t i = 0; i < n; i++) {
    action *a = &acts[i];
    if (a->invalid.len)
      continue;
    sl_item it;
    bool found;
    size_t size = 0;
    sl_err err = sl_store_item_get(txn, a->t, &a->kv, req->arena, &it, &found, &size);
    if (err != SL_OK)
      return err;
    int64_t mu = 2 * sl_cost_read_mu(found ? size : 0, true);
    a->read_charge =
        sl_cap_charge_key(req->arena, a->t->cap, SL_CAP_READ, a->kv.hash, a->kv.range, false, mu);
    ch[i] = (sl_transact_charges){&a->read_charge, 1};
    tt->c[a->slot].table_read_mu += mu;
  }
  sl_transact_reason *r = SL_NEW_ARRAY(req->arena, sl_transact_reason, n);
  if (!sl_transact_admit(req, ch, n, r))
    return sl_transact_cancel(req, r, n);
  sl_jw_obj_begin(&req->w);
  sl_transact_write_consumed(req, tt, rcc);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}

sl_err sl_action_transact_write_items(sl_req *req) {
  const sl_json *items = sl_json_get(req->body, "TransactItems");
  size_t n = items && items->type == SL_JSON_ARRAY ? items->arr.n : 0;
  SL_ASSERT(n >= 1 && n <= SL_TRANSACT_MAX_ACTIONS); /* the validator's bounds */
  action *acts = SL_NEW_ARRAY(req->arena, action, n);
  sl_txn *txn = NULL;
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
    err = sl_req_table_of(req, acts[i].obj, "TableName", SL_LOOKUP_DATA, &acts[i].t);
    if (err != SL_OK)
      return err;
    if (!first)
      first = acts[i].t;
    acts[i].slot = sl_transact_tables_slot(&tt, acts[i].t, sl_req_str(acts[i].obj, "TableName"));
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
  sl_rcc rcc = sl_req_rcc(req->body);
  sl_str token = sl_req_str(req->body, "ClientRequestToken");
  bool has_token = sl_req_has(req->body, "ClientRequestToken");
  uint8_t fp[16];

  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  if (has_token) {
    sl_transact_token_state state;
    sl_transact_fingerprint(req, items, fp);
    if ((err = sl_transact_token_lookup(req, txn, token, fp, &state)) != SL_OK)
      goto out;
    if (state == SL_TOKEN_REPLAY) {
      err = replay(req, txn, acts, n, &tt, rcc);
      goto out;
    }
  }

  /* Read, evaluate and apply (purely) every action. */
  bool cancelled = false;
  for (size_t i = 0; i < n; i++) {
    action *a = &acts[i];
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
    action *a = &acts[i];
    sl_write_plan_consumed(&a->plan, &tt.c[a->slot]);
    if (a->kind == ACT_CHECK)
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
  if (has_token && (err = sl_transact_token_record(req, txn, token, fp)) != SL_OK)
    goto out;
  sl_jw_obj_begin(&req->w);
  sl_transact_write_consumed(req, &tt, rcc);
  if (sl_str_eq_c(sl_req_str(req->body, "ReturnItemCollectionMetrics"), "SIZE"))
    write_collections(req, acts, n, &tt);
  sl_jw_obj_end(&req->w);
  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err == SL_OK)
    for (size_t i = 0; i < n; i++)
      if (acts[i].kind != ACT_CHECK)
        sl_write_plan_committed(req, &acts[i].plan);
out:
  if (txn)
    sl_store_abort(txn);
  return err;
}
