/*
 * BatchExecuteStatement — up to 25 single-item PartiQL statements, all reads
 * (SELECT by the full key: GetItem) or all writes (INSERT, UPDATE, DELETE:
 * PutItem, UpdateItem, DeleteItem), each run by its own core, each with its
 * own result: a statement that fails does not fail the others.
 * Pinned by tests/conformance/test_batch_execute_statement.py.
 *
 * Request: Statements [{Statement, Parameters, ConsistentRead,
 * ReturnValuesOnConditionCheckFailure}], ReturnConsumedCapacity. Checks of
 * the request as a whole, in this order (DynamoDB Local's): reads and writes
 * not mixed ("Read and write requests together in the same batch is not
 * supported."), then no two statements on one item ("Provided list of item
 * keys contains duplicates"). Everything else is a statement's own error in
 * Responses: {"Error": {"Code", "Message"[, "Item"]}, "TableName"} with the
 * codes of BatchStatementError (ValidationError, ResourceNotFound,
 * ConditionalCheckFailed, DuplicateItem, ProvisionedThroughputExceeded,
 * ThrottlingError, ...); a success is {"TableName"[, "Item"]}.
 *
 * ConsumedCapacity: one entry per table, summed over its statements.
 * Throttling: each statement is admitted on its own, as a batch item is; its
 * throttle becomes its error (ProvisionedThroughputExceeded / ThrottlingError)
 * and one ThrottleEvent; the request counts in ThrottledRequests only when
 * every statement was throttled (BatchGetItem's rule, facts §7).
 * Metrics: OperationType Read or Write (facts §7).
 */
#include "actions/actions.h"
#include "actions/members.h"
#include "actions/reply.h"
#include "actions/statements.h"
#include "base/log.h"
#include "partiql/partiql.h"

#define MAX_STATEMENTS 25

typedef struct {
  sl_pql_stmt *st;
  sl_pql_plan plan;
  bool planned;
  sl_failure err; /* code SL_OK: none */
  sl_pql_result res;
  bool ran;
} entry;

/* BatchStatementError's Code for an exception. */
static const char *error_code(sl_err code) {
  switch (code) {
  case SL_E_CONDITIONAL_CHECK_FAILED:
    return "ConditionalCheckFailed";
  case SL_E_RESOURCE_NOT_FOUND:
    return "ResourceNotFound";
  case SL_E_DUPLICATE_ITEM:
    return "DuplicateItem";
  case SL_E_PROVISIONED_THROUGHPUT_EXCEEDED:
    return "ProvisionedThroughputExceeded";
  case SL_E_THROTTLING:
    return "ThrottlingError";
  case SL_E_REQUEST_LIMIT_EXCEEDED:
    return "RequestLimitExceeded";
  case SL_E_ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED:
    return "ItemCollectionSizeLimitExceeded";
  case SL_E_TRANSACTION_CONFLICT:
    return "TransactionConflict";
  case SL_E_VALIDATION:
    return "ValidationError";
  default:
    return "InternalServerError";
  }
}

/* Runs 'fn' for one statement with a fresh failure, keeping the request's. */
static void take_failure(sl_req *req, entry *e, const sl_failure *saved) {
  e->err = req->fail;
  req->fail = *saved;
}

sl_err sl_action_batch_execute_statement(sl_req *req) {
  const sl_json *items = sl_json_get(req->body, "Statements");
  size_t n = items && items->type == SL_JSON_ARRAY ? items->arr.n : 0;
  SL_ASSERT(n >= 1 && n <= MAX_STATEMENTS); /* the validator's bounds */
  entry *es = SL_NEW_ARRAY(req->arena, entry, n);
  const sl_failure saved = req->fail;
  size_t reads = 0, writes = 0;
  /* Parse every statement; a statement that does not parse is its own error. */
  for (size_t i = 0; i < n; i++) {
    sl_failure_init(&req->fail, req->arena);
    if (sl_pql_parse(req->arena, &req->fail, sl_in_str(items->arr.items[i], "Statement"),
                     &es[i].st) != SL_OK) {
      take_failure(req, &es[i], &saved);
      continue;
    }
    req->fail = saved;
    if (es[i].st->kind == SL_PQL_SELECT)
      reads++;
    else
      writes++;
  }
  if (reads && writes)
    return sl_fail(req, SL_E_VALIDATION,
                   "Read and write requests together in the same batch is not supported.");
  if (reads || writes)
    req->op_verb = reads ? "Read" : "Write"; /* the OperationType dimension (facts §7) */
  /* Plan each; then the whole batch's check of duplicate keys. */
  sl_table *first = NULL;
  for (size_t i = 0; i < n; i++) {
    entry *e = &es[i];
    if (!e->st)
      continue;
    const sl_json *obj = items->arr.items[i];
    sl_av *params;
    uint32_t n_params;
    sl_failure_init(&req->fail, req->arena);
    if (sl_statements_parameters(req, obj, &params, &n_params) != SL_OK ||
        sl_pql_plan_make(req, e->st, params, n_params, SL_PQL_IN_BATCH, &e->plan) != SL_OK) {
      take_failure(req, e, &saved);
      continue;
    }
    if (e->st->kind == SL_PQL_EXISTS) {
      sl_fail(req, SL_E_VALIDATION,
              "EXISTS is supported only as a condition check in ExecuteTransaction");
      take_failure(req, e, &saved);
      continue;
    }
    req->fail = saved;
    e->planned = true;
    if (!first)
      first = e->plan.t;
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i && es[i].planned; j++)
      if (es[j].planned && es[j].plan.t == es[i].plan.t &&
          sl_av_eq(es[j].plan.kv.hash, es[i].plan.kv.hash) &&
          (!es[i].plan.kv.range || sl_av_eq(es[j].plan.kv.range, es[i].plan.kv.range)))
        return sl_fail(req, SL_E_VALIDATION, "Provided list of item keys contains duplicates");
  req->table = first;
  /* Run them, in order. */
  for (size_t i = 0; i < n; i++) {
    entry *e = &es[i];
    if (!e->planned)
      continue;
    const sl_json *obj = items->arr.items[i];
    sl_pql_opts o = {.consistent = sl_in_bool(obj, "ConsistentRead", false),
                     .all_old_on_fail = sl_str_eq_c(
                         sl_in_str(obj, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD")};
    sl_failure_init(&req->fail, req->arena);
    if (sl_pql_execute(req, &e->plan, &o, &e->res) != SL_OK) {
      take_failure(req, e, &saved);
      continue;
    }
    req->fail = saved;
    e->ran = true;
  }
  /* ThrottledRequests counts the batch only when every statement was
   * throttled, as BatchGetItem and BatchWriteItem (facts §7); each
   * statement's throttle is already its own ThrottleEvents. */
  size_t throttled = 0;
  for (size_t i = 0; i < n; i++)
    throttled += !es[i].ran && (es[i].err.code == SL_E_PROVISIONED_THROUGHPUT_EXCEEDED ||
                                es[i].err.code == SL_E_THROTTLING ||
                                es[i].err.code == SL_E_REQUEST_LIMIT_EXCEEDED);
  if (throttled == n)
    req->metrics.throttled = true;

  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Responses");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < n; i++) {
    entry *e = &es[i];
    sl_jw_obj_begin(w);
    if (!e->ran) {
      sl_jw_key_c(w, "Error");
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "Code");
      sl_jw_str_c(w, error_code(e->err.code));
      sl_jw_key_c(w, "Message");
      sl_jw_str(w, e->err.message);
      /* ConditionalCheckFailedException's Item (ALL_OLD). */
      if (e->err.code == SL_E_CONDITIONAL_CHECK_FAILED && e->err.detail_kind == SL_DETAIL_ITEM) {
        sl_jw_key_c(w, "Item");
        sl_item_write_json(w, (const sl_item *)e->err.detail);
      }
      sl_jw_obj_end(w);
    }
    if (e->planned && e->err.code != SL_E_RESOURCE_NOT_FOUND) {
      sl_jw_key_c(w, "TableName");
      sl_jw_str(w, e->plan.t->name);
    }
    if (e->ran && e->st->kind == SL_PQL_SELECT && e->res.n) {
      sl_jw_key_c(w, "Item");
      sl_item_write_json(w, &e->res.items[0]);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_rcc rcc = sl_in_rcc(req->body);
  if (rcc != SL_RCC_NONE) {
    /* One entry per table, in order of first use. */
    sl_consumed *c = SL_NEW_ARRAY(req->arena, sl_consumed, n);
    sl_table **tables = SL_NEW_ARRAY(req->arena, sl_table *, n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      entry *e = &es[i];
      if (!e->planned ||
          (!e->ran && e->res.consumed.table_read_mu == 0 && e->res.consumed.table_write_mu == 0))
        continue;
      size_t s = 0;
      while (s < k && tables[s] != e->plan.t)
        s++;
      if (s == k) {
        tables[k] = e->plan.t;
        c[k].table_name = e->plan.t->name;
        k++;
      }
      c[s].table_read_mu += e->res.consumed.table_read_mu;
      c[s].table_write_mu += e->res.consumed.table_write_mu;
      for (uint32_t x = 0; x < e->res.consumed.n_idx; x++)
        sl_consumed_add_index(&c[s], e->res.consumed.idx[x].name, e->res.consumed.idx[x].global,
                              e->res.consumed.idx[x].read_mu, e->res.consumed.idx[x].write_mu);
    }
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_jw_arr_begin(w);
    for (size_t s = 0; s < k; s++)
      sl_reply_consumed(&req->w, &c[s], rcc);
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
