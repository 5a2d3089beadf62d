/*
 * ExecuteStatement — one PartiQL statement: SELECT, INSERT, UPDATE or
 * DELETE, planned onto GetItem, Query, Scan, PutItem, UpdateItem or
 * DeleteItem (partiql/partiql.h) and charged exactly as that core charges.
 * Pinned by tests/conformance/test_execute_statement.py.
 *
 * Request: Statement, Parameters, ConsistentRead, NextToken, Limit,
 * ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure. Checks, in
 * this order: the statement's syntax, the parameters' values, NextToken,
 * then the plan (parameter count, table, index, key equalities).
 *
 * Reply: Items (a page of a SELECT; the RETURNING item of a write; empty
 * otherwise), NextToken when a Query or Scan page stopped early, and
 * ConsumedCapacity.
 *
 * Metrics: Operation ExecuteStatement with the Verb dimension PartiQLSelect,
 * PartiQLInsert, PartiQLUpdate or PartiQLDelete (facts §7).
 *
 * NextToken is sluice's own: the base64 of {"k": <LastEvaluatedKey>} (with
 * "i": the read to continue at, for a statement of several reads: "pk IN
 * [...]"); the service's token is opaque too, so clients only hand it back.
 */
#include "actions/actions.h"
#include "actions/members.h"
#include "actions/reply.h"
#include "actions/statements.h"
#include "base/base64.h"
#include "partiql/partiql.h"

static sl_err invalid_token(sl_req *req) {
  return sl_fail(req, SL_E_VALIDATION, "Invalid NextToken");
}

static sl_err decode_token(sl_req *req, sl_str tok, sl_item *out, bool *has_key, uint32_t *sub) {
  size_t bad;
  if (sl_base64_check(tok, &bad) != SL_BASE64_OK)
    return invalid_token(req);
  char *raw = sl_arena_alloc(req->arena, sl_base64_decoded_max(tok.len) + 1);
  size_t len = sl_base64_decode(tok, raw);
  sl_json *j;
  sl_json_error je;
  if (sl_json_parse(req->arena, raw, len, &j, &je) != 0 || j->type != SL_JSON_OBJECT)
    return invalid_token(req);
  const sl_json *k = sl_json_get(j, "k"), *i = sl_json_get(j, "i");
  *sub = 0;
  if (i) {
    int64_t v = sl_in_int(j, "i", -1);
    if (i->type != SL_JSON_NUMBER || v < 0 || v > UINT32_MAX)
      return invalid_token(req);
    *sub = (uint32_t)v;
  }
  *has_key = k != NULL;
  if (!k && i)
    return SL_OK;
  if (!k || k->type != SL_JSON_OBJECT)
    return invalid_token(req);
  sl_failure saved = req->fail;
  if (sl_item_from_json(&req->fail, req->arena, k, out) != SL_OK) {
    req->fail = saved;
    return invalid_token(req);
  }
  return SL_OK;
}

static void write_token(sl_req *req, const sl_pql_result *res, bool multi) {
  sl_buf b;
  sl_buf_init(&b, req->arena);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_obj_begin(&w);
  if (multi) {
    sl_jw_key_c(&w, "i");
    sl_jw_int(&w, res->next_sub);
  }
  if (!multi || res->last_key.n) {
    sl_jw_key_c(&w, "k");
    sl_item_write_json(&w, &res->last_key);
  }
  sl_jw_obj_end(&w);
  char *out = sl_arena_alloc(req->arena, sl_base64_encoded_len(b.len) + 1);
  size_t len = sl_base64_encode(b.p, b.len, out);
  sl_jw_key_c(&req->w, "NextToken");
  sl_jw_str(&req->w, (sl_str){out, len});
}

sl_err sl_action_execute_statement(sl_req *req) {
  const sl_json *body = req->body;
  sl_pql_stmt *st;
  sl_err err = sl_pql_parse(req->arena, &req->fail, sl_in_str(body, "Statement"), &st);
  if (err != SL_OK)
    return err;
  /* The Verb dimension of the request's metrics (facts §7). */
  static const char *const verbs[] = {[SL_PQL_SELECT] = "PartiQLSelect",
                                      [SL_PQL_INSERT] = "PartiQLInsert",
                                      [SL_PQL_UPDATE] = "PartiQLUpdate",
                                      [SL_PQL_DELETE] = "PartiQLDelete"};
  if ((unsigned)st->kind < sizeof verbs / sizeof verbs[0])
    req->op_verb = verbs[st->kind];
  sl_av *params;
  uint32_t n_params;
  if ((err = sl_statements_parameters(req, body, &params, &n_params)) != SL_OK)
    return err;
  sl_item start;
  sl_pql_opts o = {.consistent = sl_in_bool(body, "ConsistentRead", false),
                   .limit = sl_in_int(body, "Limit", 0),
                   .all_old_on_fail = sl_str_eq_c(
                       sl_in_str(body, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD")};
  bool has_token = sl_in_has(body, "NextToken"), has_key = false;
  uint32_t sub = 0;
  if (has_token) {
    if ((err = decode_token(req, sl_in_str(body, "NextToken"), &start, &has_key, &sub)) != SL_OK)
      return err;
    o.start = has_key ? &start : NULL;
    o.start_sub = sub;
  }
  sl_pql_plan plan;
  if ((err = sl_pql_plan_make(req, st, params, n_params, SL_PQL_IN_STATEMENT, &plan)) != SL_OK)
    return err;
  bool multi = plan.op == SL_PQL_OP_MULTI;
  if (has_token &&
      (multi ? sub >= plan.n_subs
             : (plan.op != SL_PQL_OP_QUERY && plan.op != SL_PQL_OP_SCAN) || !has_key || sub != 0))
    return invalid_token(req);
  sl_pql_result res;
  if ((err = sl_pql_execute(req, &plan, &o, &res)) != SL_OK)
    return err;

  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Items");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < res.n; i++)
    sl_item_write_json(w, &res.items[i]);
  sl_jw_arr_end(w);
  if (res.more)
    write_token(req, &res, multi);
  sl_rcc rcc = sl_in_rcc(body);
  if (rcc != SL_RCC_NONE) {
    res.consumed.table_name = plan.t->name;
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_reply_consumed(&req->w, &res.consumed, rcc);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
