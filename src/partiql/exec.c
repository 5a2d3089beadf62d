/*
 * Running a PartiQL plan through its core (ops/): the items, the page state
 * and the units charged, which are the core's own — a Scan plan pays for
 * every item it reads. See partiql.h.
 */
#include "partiql/pql_int.h"

#include "ops/delete_item.h"
#include "ops/get_item.h"
#include "ops/put_item.h"
#include "ops/query.h"
#include "ops/scan.h"

static void page_result(sl_req *req, sl_pql_plan *p, const sl_page_result *page,
                        sl_pql_result *out) {
  out->items = SL_NEW_ARRAY(req->arena, sl_item, page->n ? page->n : 1);
  for (size_t i = 0; i < page->n; i++)
    out->items[i] = sl_reads_project(req, &p->rx, &page->items[i]);
  out->n = page->n;
  out->more = page->more;
  if (page->more) {
    sl_item key = {SL_NEW_ARRAY(req->arena, sl_attr, 4), 0};
    sl_page_copy_key_attrs(&key, &page->last, &p->t->key);
    if (p->x)
      sl_page_copy_key_attrs(&key, &page->last, &p->x->key);
    sl_item_canonicalize(&key);
    out->last_key = key;
  }
  out->consumed.table_read_mu = page->table_mu;
  if (p->x)
    sl_consumed_add_index(&out->consumed, p->x->name, p->x->global, page->index_mu, 0);
}

static void one_item(sl_req *req, const sl_item *it, sl_pql_result *out) {
  out->items = SL_NEW(req->arena, sl_item);
  if (it && it->n) {
    out->items[0] = *it;
    out->n = 1;
  }
}

sl_err sl_pql_execute(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_result *out) {
  memset(out, 0, sizeof *out);
  sl_err err;
  if (o->consistent && p->x && p->x->global && p->op != SL_PQL_OP_GET)
    return sl_fail(req, SL_E_VALIDATION,
                   "Consistent reads are not supported on global secondary indexes");
  p->wx.all_old_on_fail = o->all_old_on_fail;
  switch (p->op) {
  case SL_PQL_OP_GET: {
    /* The residual conjuncts need the whole item: read it unprojected,
     * then filter and project (the cost is the read's either way). */
    sl_read_exprs whole = p->rx;
    whole.projection = NULL;
    whole.select = SL_SELECT_ALL_ATTRIBUTES;
    sl_get_item_in in = {.t = p->t, .kv = p->kv, .consistent = o->consistent, .ex = &whole};
    sl_get_item_out g;
    if ((err = sl_get_item(req, &in, &g)) != SL_OK)
      return err;
    out->consumed.table_read_mu = g.read_mu;
    out->items = SL_NEW(req->arena, sl_item);
    if (g.found && sl_expr_eval(p->residual, &g.item)) {
      out->items[0] = sl_reads_project(req, &p->rx, &g.item);
      out->n = 1;
    }
    sl_req_record_returned(req, (int64_t)out->n);
    return SL_OK;
  }
  case SL_PQL_OP_QUERY: {
    sl_query_in in = {.t = p->t,
                      .x = p->x,
                      .kc = p->kc,
                      .ex = &p->rx,
                      .consistent = o->consistent,
                      .forward = p->forward,
                      .limit = o->limit,
                      .start = o->start};
    sl_page_result page;
    if ((err = sl_query(req, &in, &page)) != SL_OK)
      return err;
    page_result(req, p, &page, out);
    sl_req_record_returned(req, (int64_t)out->n);
    return SL_OK;
  }
  case SL_PQL_OP_SCAN: {
    sl_scan_in in = {.t = p->t,
                     .x = p->x,
                     .ex = &p->rx,
                     .consistent = o->consistent,
                     .limit = o->limit,
                     .segment = 0,
                     .total = 1,
                     .start = o->start};
    sl_page_result page;
    if ((err = sl_scan(req, &in, &page)) != SL_OK)
      return err;
    page_result(req, p, &page, out);
    sl_req_record_returned(req, (int64_t)out->n);
    return SL_OK;
  }
  case SL_PQL_OP_PUT: {
    sl_put_item_in in = {.t = p->t, .item = &p->key, .kv = p->kv, .ex = &p->wx};
    sl_put_item_out w = {0};
    err = sl_put_item(req, &in, &w);
    out->consumed = w.res.consumed; /* a failed condition costs too */
    if (err == SL_E_CONDITIONAL_CHECK_FAILED) {
      /* INSERT's own condition: the key exists (DynamoDB Local's text). */
      sl_failure_init(&req->fail, req->arena);
      return sl_fail(req, SL_E_DUPLICATE_ITEM, "Duplicate primary key exists in table");
    }
    if (err != SL_OK)
      return err;
    out->consumed = w.res.consumed;
    one_item(req, NULL, out);
    return SL_OK;
  }
  case SL_PQL_OP_UPDATE: {
    sl_update_item_in in = {.t = p->t, .kv = p->kv, .ex = &p->wx, .rv = p->rv};
    sl_update_item_out w = {0};
    err = sl_update_item(req, &in, &w);
    out->consumed = w.res.consumed; /* a failed condition costs too */
    if (err != SL_OK)
      return err;
    one_item(req, &w.res.attributes, out);
    return SL_OK;
  }
  case SL_PQL_OP_DELETE: {
    sl_delete_item_in in = {
        .t = p->t, .kv = p->kv, .ex = &p->wx, .return_old = p->rv == SL_RV_ALL_OLD};
    sl_delete_item_out w = {0};
    err = sl_delete_item(req, &in, &w);
    out->consumed = w.res.consumed; /* a failed condition costs too */
    if (err != SL_OK)
      return err;
    one_item(req, &w.res.attributes, out);
    return SL_OK;
  }
  case SL_PQL_OP_CHECK:
    break;
  }
  return sl_fail(req, SL_E_VALIDATION,
                 "EXISTS is supported only as a condition check in ExecuteTransaction");
}
