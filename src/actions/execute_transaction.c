/*
 * ExecuteTransaction — up to 100 PartiQL statements applied all together or
 * not at all: either all writes (INSERT, UPDATE, DELETE, EXISTS condition
 * checks), run by TransactWriteItems' core, or all reads (SELECT of one item
 * by its full key), run by TransactGetItems' core, so they are charged as
 * those transactions are (ops/txn.h).
 * Pinned by tests/conformance/test_execute_transaction.py.
 *
 * Request: TransactStatements [{Statement, Parameters,
 * ReturnValuesOnConditionCheckFailure}], ClientRequestToken,
 * ReturnConsumedCapacity. Checks, in this order (DynamoDB Local's): every
 * statement's syntax and parameter values; reads and writes not mixed ("ExecuteTransaction
 * API does not support both read and write operations in the same
 * request."); then each statement's plan, its table
 * (ResourceNotFoundException, "Requested resource not found") and its rules
 * ("Validation failed in TransactStatements[i]: ..."): no RETURNING, a SELECT
 * by its full key; no two statements on one item.
 *
 * Cancellation reasons are TransactWriteItems': ConditionalCheckFailed for an
 * UPDATE of a missing item or a false WHERE condition, and for an INSERT of
 * an existing key ValidationError "Duplicate primary key exists in table"
 * (DynamoDB Local's code and text).
 *
 * Reply: Responses (reads: [{Item}] per statement; writes: []) and
 * ConsumedCapacity. Metrics: OperationType Read or Write (facts §7).
 */
#include "actions/actions.h"
#include "actions/members.h"
#include "actions/reply.h"
#include "actions/statements.h"
#include "base/log.h"
#include "ops/transact_get_items.h"
#include "ops/transact_write_items.h"
#include "partiql/partiql.h"

/* A ValidationException of one statement, named by its position. */
static sl_err statement_failure(sl_req *req, size_t i) {
  if (req->fail.code != SL_E_VALIDATION)
    return req->fail.code;
  sl_str msg = req->fail.message;
  sl_failure_init(&req->fail, req->arena);
  return sl_fail(req, SL_E_VALIDATION, "Validation failed in TransactStatements[%zu]: %.*s", i,
                 SL_STR_FMT(msg));
}

static sl_err run_reads(sl_req *req, sl_pql_plan *plans, size_t n, sl_transact_tables *tt) {
  sl_tg_action *acts = SL_NEW_ARRAY(req->arena, sl_tg_action, n);
  for (size_t i = 0; i < n; i++) {
    sl_tg_action *a = &acts[i];
    a->key = plans[i].key;
    a->kv = plans[i].kv;
    a->t = plans[i].t;
    a->ex = plans[i].rx;
    a->slot = sl_transact_tables_slot(tt, a->t, a->t->name);
    sl_buf b;
    sl_buf_init(&b, req->arena);
    sl_store_item_key(&b, a->t, &a->kv);
    a->storage_key = sl_buf_str(&b);
    for (size_t j = 0; j < i; j++)
      if (sl_str_eq(a->storage_key, acts[j].storage_key))
        return sl_fail(req, SL_E_VALIDATION,
                       "Transaction request cannot include multiple operations on one item");
  }
  sl_err err = sl_transact_get_items(req, acts, n, tt);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Responses");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < n; i++) {
    sl_jw_obj_begin(w);
    /* Conjuncts beyond the key are evaluated on the item read. */
    if (acts[i].found && sl_expr_eval(plans[i].residual, &acts[i].item)) {
      sl_jw_key_c(w, "Item");
      sl_item_write_json(w, &acts[i].projected);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_reply_transact_consumed(&req->w, tt, sl_in_rcc(req->body));
  sl_jw_obj_end(w);
  return SL_OK;
}

static const sl_tw_kind tw_kinds[] = {
    [SL_PQL_OP_PUT] = SL_TW_PUT,
    [SL_PQL_OP_UPDATE] = SL_TW_UPDATE,
    [SL_PQL_OP_DELETE] = SL_TW_DELETE,
    [SL_PQL_OP_CHECK] = SL_TW_CHECK,
};

static sl_err run_writes(sl_req *req, sl_pql_plan *plans, size_t n, sl_transact_tables *tt,
                         const sl_json *statements) {
  sl_tw_action *acts = SL_NEW_ARRAY(req->arena, sl_tw_action, n);
  size_t payload = 0;
  for (size_t i = 0; i < n; i++) {
    sl_pql_plan *p = &plans[i];
    sl_tw_action *a = &acts[i];
    a->kind = tw_kinds[p->op];
    a->item = p->key;
    a->kv = p->kv;
    a->ex = p->wx;
    a->ex.all_old_on_fail = sl_str_eq_c(
        sl_in_str(statements->arr.items[i], "ReturnValuesOnConditionCheckFailure"), "ALL_OLD");
    a->t = p->t;
    a->slot = sl_transact_tables_slot(tt, a->t, a->t->name);
    if (p->op == SL_PQL_OP_PUT) {
      a->cond_code = "ValidationError";
      a->cond_message = SL_STR("Duplicate primary key exists in table");
    }
    sl_buf b;
    sl_buf_init(&b, req->arena);
    sl_store_item_key(&b, a->t, &a->kv);
    a->storage_key = sl_buf_str(&b);
    for (size_t j = 0; j < i; j++)
      if (sl_str_eq(a->storage_key, acts[j].storage_key))
        return sl_fail(req, SL_E_VALIDATION,
                       "Transaction request cannot include multiple operations on one item");
    payload += sl_item_size(&a->item);
  }
  if (payload > SL_TRANSACT_MAX_BYTES)
    return sl_fail(req, SL_E_VALIDATION,
                   "Transaction payload size cannot exceed 4MB. Payload Size: %zu", payload);
  sl_tw_in in = {.acts = acts,
                 .n = n,
                 .tt = tt,
                 .has_token = sl_in_has(req->body, "ClientRequestToken"),
                 .token = sl_in_str(req->body, "ClientRequestToken")};
  if (in.has_token)
    sl_in_fingerprint(req, statements, in.fingerprint);
  bool replayed;
  sl_err err = sl_transact_write_items(req, &in, &replayed);
  if (err != SL_OK)
    return err;
  /* An empty Responses list, as DynamoDB Local answers a write transaction. */
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "Responses");
  sl_jw_arr_begin(&req->w);
  sl_jw_arr_end(&req->w);
  sl_reply_transact_consumed(&req->w, tt, sl_in_rcc(req->body));
  sl_jw_obj_end(&req->w);
  return SL_OK;
}

sl_err sl_action_execute_transaction(sl_req *req) {
  const sl_json *items = sl_json_get(req->body, "TransactStatements");
  size_t n = items && items->type == SL_JSON_ARRAY ? items->arr.n : 0;
  SL_ASSERT(n >= 1 && n <= SL_TRANSACT_MAX_ACTIONS); /* the validator's bounds */
  sl_pql_stmt **sts = SL_NEW_ARRAY(req->arena, sl_pql_stmt *, n);
  sl_av **params = SL_NEW_ARRAY(req->arena, sl_av *, n);
  uint32_t *n_params = SL_NEW_ARRAY(req->arena, uint32_t, n);
  sl_err err;
  size_t reads = 0;
  for (size_t i = 0; i < n; i++) {
    const sl_json *e = items->arr.items[i];
    if ((err = sl_pql_parse(req->arena, &req->fail, sl_in_str(e, "Statement"), &sts[i])) != SL_OK)
      return err;
    if ((err = sl_statements_parameters(req, e, &params[i], &n_params[i])) != SL_OK)
      return err;
    reads += sts[i]->kind == SL_PQL_SELECT;
  }
  if (reads && reads != n)
    return sl_fail(req, SL_E_VALIDATION,
                   "ExecuteTransaction API does not support both read and write operations in the "
                   "same request.");
  req->op_verb = reads ? "Read" : "Write"; /* the OperationType dimension (facts §7) */
  sl_pql_plan *plans = SL_NEW_ARRAY(req->arena, sl_pql_plan, n);
  for (size_t i = 0; i < n; i++) {
    err = sl_pql_plan_make(req, sts[i], params[i], n_params[i], SL_PQL_IN_TRANSACTION, &plans[i]);
    if (err != SL_OK)
      return statement_failure(req, i);
  }
  req->table = plans[0].t;
  sl_transact_tables tt;
  sl_transact_tables_init(req, &tt, (uint32_t)n);
  return reads ? run_reads(req, plans, n, &tt) : run_writes(req, plans, n, &tt, items);
}
