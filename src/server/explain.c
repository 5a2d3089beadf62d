/* POST /_sluice/explain; see explain.h. */
#include "server/explain.h"
#include "server/metrics_http.h"
#include "actions/members.h"
#include "server/dispatch.h"
#include "server/validate.h"
#include "actions/actions.h"
#include "partiql/partiql.h"
#include "base/json.h"

#define MAX_ALTERNATIVES 8

static double units(int64_t mu) { return (double)mu / 1000.0; }

static void fail_reply(sl_http_response *resp, const sl_failure *f) {
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "error");
  sl_jw_str(&w, f->message);
  sl_jw_key_c(&w, "type");
  sl_jw_str_c(&w, sl_err_name(f->code));
  sl_jw_obj_end(&w);
  resp->status = 400;
  resp->content_type = SL_STR("application/json");
}

static void write_keycond(sl_jw *w, sl_arena *a, const sl_pql_plan *p) {
  sl_buf b;
  sl_buf_init(&b, a);
  if (p->op == SL_PQL_OP_GET) {
    sl_expr_keycond kc = {.hash = p->kv.hash,
                          .has_range = p->kv.range != NULL,
                          .range_op = SL_EXPR_KEY_EQ,
                          .range = {p->kv.range, NULL}};
    sl_expr_print_keycond(&b, &kc, &p->t->key);
  } else {
    sl_expr_print_keycond(&b, &p->kc, p->x ? &p->x->key : &p->t->key);
  }
  sl_jw_key_c(w, "KeyCondition");
  sl_jw_str(w, sl_buf_str(&b));
}

static void write_plan(sl_jw *w, sl_arena *a, const sl_pql_plan *p, const sl_pql_opts *o) {
  sl_jw_obj_begin(w);
  if (p->op == SL_PQL_OP_MULTI) {
    /* Several reads: their operation, how many, and each key condition. */
    sl_jw_key_c(w, "Operation");
    sl_jw_str_c(w, sl_pql_op_name(p->n_subs ? p->subs[0].op : SL_PQL_OP_GET));
    sl_jw_key_c(w, "TableName");
    sl_jw_str(w, p->t->name);
    if (p->x) {
      sl_jw_key_c(w, "IndexName");
      sl_jw_str(w, p->x->name);
    }
    sl_jw_key_c(w, "Reads");
    sl_jw_int(w, p->n_subs);
    sl_jw_key_c(w, "KeyConditions");
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < p->n_subs; i++) {
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "Operation");
      sl_jw_str_c(w, sl_pql_op_name(p->subs[i].op));
      write_keycond(w, a, &p->subs[i]);
      sl_jw_obj_end(w);
    }
    sl_jw_arr_end(w);
    sl_buf b;
    sl_buf_init(&b, a);
    sl_pql_print_plan(&b, p);
    sl_jw_key_c(w, "Text");
    sl_jw_str(w, sl_buf_str(&b));
    sl_jw_obj_end(w);
    return;
  }
  sl_jw_key_c(w, "Operation");
  sl_jw_str_c(w, sl_pql_op_name(p->op));
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, p->t->name);
  if (p->x) {
    sl_jw_key_c(w, "IndexName");
    sl_jw_str(w, p->x->name);
  }
  if (p->op != SL_PQL_OP_SCAN)
    write_keycond(w, a, p);
  if (p->op == SL_PQL_OP_SCAN && o->total > 1) {
    sl_jw_key_c(w, "Segment");
    sl_jw_int(w, o->segment);
    sl_jw_key_c(w, "TotalSegments");
    sl_jw_int(w, o->total);
  }
  const sl_expr_node *filter = p->op == SL_PQL_OP_GET ? p->residual : p->rx.filter;
  if (filter) {
    sl_buf b;
    sl_buf_init(&b, a);
    sl_expr_print(&b, filter);
    sl_jw_key_c(w, "Filter");
    sl_jw_str(w, sl_buf_str(&b));
  }
  sl_buf b;
  sl_buf_init(&b, a);
  sl_pql_print_plan(&b, p);
  sl_jw_key_c(w, "Text");
  sl_jw_str(w, sl_buf_str(&b));
  sl_jw_obj_end(w);
}

static void write_estimate(sl_jw *w, const sl_pql_estimate *e) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Items");
  sl_jw_int(w, e->items);
  sl_jw_key_c(w, "ReturnedItems");
  sl_jw_int(w, e->returned);
  sl_jw_key_c(w, "Bytes");
  sl_jw_uint(w, e->bytes);
  sl_jw_key_c(w, "Pages");
  sl_jw_int(w, e->pages);
  sl_jw_key_c(w, "ReadUnits");
  sl_jw_double(w, units(e->read_mu));
  sl_jw_key_c(w, "FirstPageReadUnits");
  sl_jw_double(w, units(e->first_page_mu));
  sl_jw_key_c(w, "ReadLimitPerSecond");
  sl_jw_int(w, e->limit_ups);
  sl_jw_key_c(w, "SecondsAtCurrentLimit");
  sl_jw_double(w, e->limit_ups > 0 ? units(e->read_mu) / (double)e->limit_ups : 0.0);
  sl_jw_key_c(w, "WillThrottle");
  sl_jw_bool(w, e->will_throttle);
  sl_jw_key_c(w, "Exact");
  sl_jw_bool(w, true);
  sl_jw_obj_end(w);
}

/* The answer for an INSERT, UPDATE or DELETE: the single-item write it
 * becomes, its key and condition, and what it costs now. */
static void write_write_answer(sl_http_response *resp, sl_arena *a, const sl_pql_plan *p,
                               const sl_pql_write_estimate *e) {
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "Plan");
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "Operation");
  sl_jw_str_c(&w, sl_pql_op_name(p->op));
  sl_jw_key_c(&w, "TableName");
  sl_jw_str(&w, p->t->name);
  sl_jw_key_c(&w, "Key");
  sl_jw_obj_begin(&w);
  sl_jw_key(&w, p->t->key.hash);
  sl_av_write_json(&w, p->kv.hash);
  if (p->kv.range) {
    sl_jw_key(&w, p->t->key.range);
    sl_av_write_json(&w, p->kv.range);
  }
  sl_jw_obj_end(&w);
  sl_buf b;
  if (p->wx.cond) {
    sl_buf_init(&b, a);
    sl_expr_print(&b, p->wx.cond);
    sl_jw_key_c(&w, "Condition");
    sl_jw_str(&w, sl_buf_str(&b));
  }
  sl_buf_init(&b, a);
  sl_pql_print_plan(&b, p);
  sl_jw_key_c(&w, "Text");
  sl_jw_str(&w, sl_buf_str(&b));
  sl_jw_obj_end(&w);
  sl_jw_key_c(&w, "Estimate");
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "Items");
  sl_jw_int(&w, 1);
  sl_jw_key_c(&w, "Bytes");
  sl_jw_uint(&w, e->old_bytes > e->new_bytes ? e->old_bytes : e->new_bytes);
  sl_jw_key_c(&w, "ItemBytesBefore");
  sl_jw_uint(&w, e->old_bytes);
  sl_jw_key_c(&w, "ItemBytesAfter");
  sl_jw_uint(&w, e->new_bytes);
  sl_jw_key_c(&w, "Pages");
  sl_jw_int(&w, 1);
  sl_jw_key_c(&w, "ReadUnits");
  sl_jw_double(&w, 0.0);
  sl_jw_key_c(&w, "WriteUnits");
  sl_jw_double(&w, units(e->write_mu));
  sl_jw_key_c(&w, "TableWriteUnits");
  sl_jw_double(&w, units(e->table_write_mu));
  sl_jw_key_c(&w, "WriteLimitPerSecond");
  sl_jw_int(&w, e->limit_ups);
  sl_jw_key_c(&w, "SecondsAtCurrentLimit");
  sl_jw_double(&w, e->limit_ups > 0 ? units(e->write_mu) / (double)e->limit_ups : 0.0);
  sl_jw_key_c(&w, "WillThrottle");
  sl_jw_bool(&w, e->will_throttle);
  sl_jw_key_c(&w, "ConditionPasses");
  sl_jw_bool(&w, !e->cond_failed);
  sl_jw_key_c(&w, "SingleItemWrite");
  sl_jw_bool(&w, true);
  sl_jw_key_c(&w, "Exact");
  sl_jw_bool(&w, true);
  sl_jw_obj_end(&w);
  sl_jw_key_c(&w, "Warnings");
  sl_jw_arr_begin(&w);
  if (e->cond_failed)
    sl_jw_str(&w, sl_arena_printf(
                      a, "The write would fail now (%s) and still be charged %.1f write units: %s.",
                      p->op == SL_PQL_OP_PUT ? "DuplicateItemException"
                                             : "ConditionalCheckFailedException",
                      units(e->write_mu),
                      p->op == SL_PQL_OP_PUT ? "an item with this key exists"
                      : p->op == SL_PQL_OP_UPDATE
                          ? "the item is missing or the WHERE conditions beyond the key are false"
                          : "the WHERE conditions beyond the key are false"));
  if (e->will_throttle)
    sl_jw_str_c(&w, "The write would be throttled now: the write capacity of the table or of an "
                    "index it changes is spent.");
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "Alternatives");
  sl_jw_arr_begin(&w);
  sl_jw_arr_end(&w);
  sl_jw_obj_end(&w);
  resp->status = 200;
  resp->content_type = SL_STR("application/json");
}

/* The plan of a {"Query": {...}} or {"Scan": {...}} request: its checks are
 * the operation's own (the model's validation, then the action's). */
static sl_err request_plan(sl_req *req, const char *op, const sl_json *inner, sl_pql_plan *plan,
                           sl_pql_opts *o) {
  memset(plan, 0, sizeof *plan);
  if (sl_api_validate(&req->fail, SL_STR("DynamoDB_20120810"), sl_str_c(op), inner) != SL_OK)
    return req->fail.code;
  req->body = inner;
  sl_read_exprs *ex = SL_NEW(req->arena, sl_read_exprs);
  sl_item *esk = SL_NEW(req->arena, sl_item);
  sl_err err;
  if (op[0] == 'Q') {
    sl_query_in in;
    if ((err = sl_action_query_parse(req, &in, ex, esk)) != SL_OK)
      return err;
    plan->op = SL_PQL_OP_QUERY;
    plan->t = in.t;
    plan->x = in.x;
    plan->kc = in.kc;
    plan->forward = in.forward;
    *o = (sl_pql_opts){.consistent = in.consistent, .limit = in.limit, .start = in.start};
  } else {
    sl_scan_in in;
    if ((err = sl_action_scan_parse(req, &in, ex, esk)) != SL_OK)
      return err;
    plan->op = SL_PQL_OP_SCAN;
    plan->t = in.t;
    plan->x = in.x;
    /* One segment of a parallel scan reads that segment's items only. */
    *o = (sl_pql_opts){.consistent = in.consistent,
                       .limit = in.limit,
                       .start = in.start,
                       .segment = (uint32_t)in.segment,
                       .total = (uint32_t)in.total};
  }
  plan->rx = *ex;
  return SL_OK;
}

void sl_explain_handle(sl_app *app, sl_http_request *hreq, sl_http_response *resp) {
  sl_req req = {0};
  req.env = &app->env;
  req.arena = &app->arena;
  sl_failure_init(&req.fail, req.arena);
  req.now_ms = sl_clock_now_ms(&app->clock);
  req.metrics.returned_items = -1;
  sl_json *body;
  sl_json_error jerr;
  const sl_json *stmt = NULL, *query = NULL, *scan = NULL;
  if (sl_json_parse(req.arena, hreq->body.p, hreq->body.len, &body, &jerr) != 0 ||
      body->type != SL_JSON_OBJECT ||
      (!((stmt = sl_json_get(body, "Statement")) && stmt->type == SL_JSON_STRING) &&
       !((query = sl_json_get(body, "Query")) && query->type == SL_JSON_OBJECT) &&
       !((scan = sl_json_get(body, "Scan")) && scan->type == SL_JSON_OBJECT))) {
    sl_admin_error(resp, 400,
                   "expected {\"Statement\": \"SELECT ...\", \"Parameters\": [...], "
                   "\"ConsistentRead\": bool, \"Limit\": N}, {\"Query\": {...}} or "
                   "{\"Scan\": {...}}");
    return;
  }
  req.body = body;
  const sl_json *ps = sl_json_get(body, "Parameters");
  size_t n = ps && ps->type == SL_JSON_ARRAY ? ps->arr.n : 0;
  sl_av *params = SL_NEW_ARRAY(req.arena, sl_av, n ? n : 1);
  const sl_json *lim = sl_json_get(body, "Limit");
  sl_pql_opts o = {.consistent = sl_json_get(body, "ConsistentRead") &&
                                 sl_json_get(body, "ConsistentRead")->type == SL_JSON_TRUE,
                   .limit = lim && lim->type == SL_JSON_NUMBER ? sl_in_int(body, "Limit", 0) : 0};
  sl_pql_stmt *st = NULL;
  sl_pql_plan plan;
  sl_pql_estimate est;
  sl_pql_write_estimate west;
  if (!stmt || stmt->type != SL_JSON_STRING) {
    if (request_plan(&req, query ? "Query" : "Scan", query ? query : scan, &plan, &o) != SL_OK ||
        sl_pql_explain(&req, &plan, &o, &est) != SL_OK)
      goto fail;
    n = 0;
    goto answer;
  }
  for (size_t i = 0; i < n; i++)
    if (sl_av_from_json(&req.fail, req.arena, ps->arr.items[i], &params[i]) != SL_OK)
      goto fail;
  if (sl_pql_parse(req.arena, &req.fail, stmt->str, &st) != SL_OK)
    goto fail;
  if (st->kind == SL_PQL_EXISTS) {
    sl_fail(&req, SL_E_VALIDATION,
            "The cost preview explains SELECT, INSERT, UPDATE and DELETE statements (and Query "
            "and Scan requests)");
    goto fail;
  }
  if (st->kind != SL_PQL_SELECT) {
    if (sl_pql_plan_make(&req, st, params, (uint32_t)n, SL_PQL_IN_STATEMENT, &plan) != SL_OK ||
        sl_pql_explain_write(&req, &plan, &o, &west) != SL_OK)
      goto fail;
    write_write_answer(resp, req.arena, &plan, &west);
    sl_req_end(&req);
    return;
  }
  if (sl_pql_plan_make(&req, st, params, (uint32_t)n, SL_PQL_IN_STATEMENT, &plan) != SL_OK ||
      sl_pql_explain(&req, &plan, &o, &est) != SL_OK)
    goto fail;
answer:;
  sl_pql_alternative *alts = SL_NEW_ARRAY(req.arena, sl_pql_alternative, MAX_ALTERNATIVES);
  /* Alternatives re-plan the statement on each index (a request's own
   * IndexName is its author's choice). */
  size_t n_alts =
      st && plan.op == SL_PQL_OP_SCAN && !plan.x
          ? sl_pql_alternatives(&req, st, params, (uint32_t)n, &o, alts, MAX_ALTERNATIVES)
          : 0;

  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "Plan");
  write_plan(&w, req.arena, &plan, &o);
  sl_jw_key_c(&w, "Estimate");
  write_estimate(&w, &est);
  sl_jw_key_c(&w, "Warnings");
  sl_jw_arr_begin(&w);
  if (plan.op == SL_PQL_OP_SCAN && o.total > 1) {
    sl_jw_str(&w, sl_arena_printf(req.arena,
                                  "This is segment %u of a parallel Scan of %u segments: it reads, "
                                  "and pays for, every item of its segment (%lld items, %llu "
                                  "bytes, %.1f read units), whatever its filter keeps.",
                                  o.segment, o.total, (long long)est.items,
                                  (unsigned long long)est.bytes, units(est.read_mu)));
  } else if (plan.op == SL_PQL_OP_SCAN) {
    sl_str pk = plan.x ? plan.x->key.hash : plan.t->key.hash;
    sl_jw_str(&w,
              sl_arena_printf(req.arena,
                              "No equality on the partition key %.*s: this SELECT is a Scan. It "
                              "reads, and pays for, every item (%lld items, %llu bytes, %.1f "
                              "read units), whatever its WHERE keeps. A filter does not reduce "
                              "cost: use a key condition or an index.",
                              SL_STR_FMT(pk), (long long)est.items, (unsigned long long)est.bytes,
                              units(est.read_mu)));
  } else if ((plan.op == SL_PQL_OP_QUERY && plan.rx.filter) && est.returned < est.items) {
    sl_jw_str(&w,
              sl_arena_printf(req.arena,
                              "The conditions beyond the key condition are a filter: they do not "
                              "reduce cost (%lld items read and paid for, %lld returned).",
                              (long long)est.items, (long long)est.returned));
  }
  for (size_t i = 0; i < n_alts; i++)
    sl_jw_str(&w, sl_arena_printf(req.arena,
                                  "Index %.*s has the partition key this WHERE fixes: "
                                  "SELECT ... FROM \"%.*s\".\"%.*s\" is a Query costing %.1f read "
                                  "units instead of %.1f.",
                                  SL_STR_FMT(alts[i].x->name), SL_STR_FMT(plan.t->name),
                                  SL_STR_FMT(alts[i].x->name), units(alts[i].est.read_mu),
                                  units(est.read_mu)));
  if (est.will_throttle)
    sl_jw_str_c(&w, "The first request would be throttled now: the read capacity of the "
                    "resource is spent.");
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "Alternatives");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < n_alts; i++) {
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "IndexName");
    sl_jw_str(&w, alts[i].x->name);
    sl_jw_key_c(&w, "Operation");
    sl_jw_str_c(&w, "Query");
    write_keycond(&w, req.arena, &alts[i].plan);
    sl_jw_key_c(&w, "Items");
    sl_jw_int(&w, alts[i].est.items);
    sl_jw_key_c(&w, "ReadUnits");
    sl_jw_double(&w, units(alts[i].est.read_mu));
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_obj_end(&w);
  resp->status = 200;
  resp->content_type = SL_STR("application/json");
  sl_req_end(&req);
  return;
fail:
  fail_reply(resp, &req.fail);
  sl_req_end(&req);
}

void sl_explain_execute(sl_app *app, sl_http_request *hreq, sl_http_response *resp) {
  sl_req req = {0};
  req.env = &app->env;
  req.arena = &app->arena;
  sl_failure_init(&req.fail, req.arena);
  sl_json *body;
  sl_json_error jerr;
  if (sl_json_parse(req.arena, hreq->body.p, hreq->body.len, &body, &jerr) != 0 ||
      body->type != SL_JSON_OBJECT) {
    sl_admin_error(resp, 400, "expected an ExecuteStatement request: {\"Statement\": \"...\"}");
    return;
  }
  /* The request as sent, with ReturnConsumedCapacity TOTAL (the workbench
   * shows it next to the preview). */
  sl_json *b = SL_NEW(req.arena, sl_json);
  b->type = SL_JSON_OBJECT;
  b->obj.members = SL_NEW_ARRAY(req.arena, sl_json_member, body->obj.n + 1);
  size_t n = 0;
  for (size_t i = 0; i < body->obj.n; i++)
    if (!sl_str_eq_c(body->obj.members[i].key, "ReturnConsumedCapacity"))
      b->obj.members[n++] = body->obj.members[i];
  sl_json *total = SL_NEW(req.arena, sl_json);
  total->type = SL_JSON_STRING;
  total->str = SL_STR("TOTAL");
  b->obj.members[n++] = (sl_json_member){SL_STR("ReturnConsumedCapacity"), total};
  b->obj.n = n;
  req.op_name = "ExecuteStatement";
  req.op_flags = SL_OPF_READ | SL_OPF_WRITE;
  req.now_ms = sl_clock_now_ms(&app->clock);
  sl_req_metrics_begin(&req);
  resp->body.len = 0;
  sl_jw_init(&req.w, &resp->body);
  req.body = b;
  if (sl_api_validate(&req.fail, SL_STR("DynamoDB_20120810"), SL_STR("ExecuteStatement"), b) ==
          SL_OK &&
      sl_action_execute_statement(&req) == SL_OK) {
    resp->status = 200;
    resp->content_type = SL_STR("application/json");
  } else {
    sl_api_write_error(resp, &req.fail);
    resp->status = sl_err_status(req.fail.code);
    resp->content_type = SL_STR("application/json");
  }
  sl_req_end(&req);
  sl_req_metrics_end(&req);
}
