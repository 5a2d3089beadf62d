/*
 * Running a PartiQL plan through its core (ops/): the items, the page state
 * and the units charged, which are the core's own — a Scan plan pays for
 * every item it reads. See partiql.h.
 */
#include "partiql/pql_int.h"

#include "base/log.h"

#include "ops/delete_item.h"
#include "ops/get_item.h"
#include "ops/put_item.h"
#include "ops/query.h"
#include "ops/scan.h"

/* An item as a SELECT returns it: the projection applied, and each nested
 * path's value as a top-level attribute under its last name
 * (sl__pql_select_name): SELECT m.q[0] gives {"q[0]": ...}, not
 * {"m": {"q": [...]}} as a ProjectionExpression would. */
static sl_item selected(sl_req *req, const sl_pql_plan *p, const sl_item *it) {
  const sl_pql_stmt *st = p->st;
  bool nested = false;
  for (uint32_t i = 0; st && st->proj && i < st->n_proj && !nested; i++)
    nested = st->proj[i].n > 1;
  if (!nested)
    return sl_reads_project(req, &p->rx, it);
  /* Read from the item itself: a projection renumbers list elements. */
  sl_item out = {SL_NEW_ARRAY(req->arena, sl_attr, st->n_proj), 0};
  for (uint32_t i = 0; i < st->n_proj; i++) {
    const sl_av *v = sl_expr_path_get(it, &st->proj[i]);
    if (v)
      out.attrs[out.n++] = (sl_attr){sl__pql_select_name(req->arena, &st->proj[i]), *v};
  }
  sl_item_canonicalize(&out);
  return out;
}

static void page_result(sl_req *req, sl_pql_plan *p, const sl_page_result *page,
                        sl_pql_result *out) {
  out->items = SL_NEW_ARRAY(req->arena, sl_item, page->n ? page->n : 1);
  for (size_t i = 0; i < page->n; i++)
    out->items[i] = selected(req, p, &page->items[i]);
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
  out->scanned = page->scanned;
  out->bytes = page->bytes;
}

/* Adds the units of 'r' to 'c' (a MULTI plan's reads, one table). */
static void add_consumed(sl_consumed *c, const sl_consumed *r) {
  c->table_read_mu += r->table_read_mu;
  c->table_write_mu += r->table_write_mu;
  for (uint32_t i = 0; i < r->n_idx; i++)
    sl_consumed_add_index(c, r->idx[i].name, r->idx[i].global, r->idx[i].read_mu,
                          r->idx[i].write_mu);
}

static sl_err execute_read(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_result *out);

/* The reads of a MULTI plan in order, from o->start_sub, within one Limit:
 * a read that stops early (Limit, 1 MB) ends the page with its key; Limit
 * reached at the end of a read ends it before the next. */
static sl_err execute_multi(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_result *out) {
  size_t cap = 16;
  out->items = SL_NEW_ARRAY(req->arena, sl_item, cap);
  if (o->start_sub >= p->n_subs)
    return sl_fail(req, SL_E_VALIDATION, "Invalid NextToken");
  for (uint32_t i = o->start_sub; i < p->n_subs; i++) {
    sl_pql_opts so = *o;
    so.start = i == o->start_sub ? o->start : NULL;
    so.start_sub = 0;
    so.limit = o->limit ? o->limit - out->scanned : 0;
    sl_pql_result r;
    sl_err err = execute_read(req, &p->subs[i], &so, &r);
    if (err != SL_OK)
      return err;
    if (out->n + r.n > cap) {
      size_t ncap = (out->n + r.n) * 2;
      out->items =
          sl_arena_realloc(req->arena, out->items, cap * sizeof(sl_item), ncap * sizeof(sl_item));
      cap = ncap;
    }
    for (size_t k = 0; k < r.n; k++)
      out->items[out->n++] = r.items[k];
    add_consumed(&out->consumed, &r.consumed);
    out->scanned += r.scanned;
    out->bytes += r.bytes;
    if (r.more) {
      out->more = true;
      out->last_key = r.last_key;
      out->next_sub = i;
      return SL_OK;
    }
    if (o->limit && out->scanned >= o->limit && i + 1 < p->n_subs) {
      out->more = true;
      out->next_sub = i + 1;
      return SL_OK;
    }
  }
  return SL_OK;
}

static void one_item(sl_req *req, const sl_item *it, sl_pql_result *out) {
  out->items = SL_NEW(req->arena, sl_item);
  if (it && it->n) {
    out->items[0] = *it;
    out->n = 1;
  }
}

/* GetItem, Query, Scan and MULTI plans. */
static sl_err execute_read(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_result *out) {
  memset(out, 0, sizeof *out);
  sl_err err;
  if (o->consistent && p->x && p->x->global && p->op != SL_PQL_OP_GET)
    return sl_fail(req, SL_E_VALIDATION,
                   "Strongly consistent read is not supported on Global Secondary Indexes");
  switch (p->op) {
  case SL_PQL_OP_GET: {
    /* The residual conjuncts need the whole item: read it unprojected,
     * then filter and project (the cost is the read's either way). */
    sl_read_exprs whole = p->rx;
    whole.projection = NULL;
    whole.select = SL_SELECT_ALL_ATTRIBUTES;
    sl_get_item_in in = {
        .t = p->t, .kv = p->kv, .consistent = o->consistent, .ex = &whole, .preview = o->preview};
    sl_get_item_out g;
    if ((err = sl_get_item(req, &in, &g)) != SL_OK)
      return err;
    out->consumed.table_read_mu = g.read_mu;
    out->items = SL_NEW(req->arena, sl_item);
    out->scanned = g.found;
    out->bytes = g.size;
    if (g.found && sl_expr_eval(p->residual, &g.item)) {
      out->items[0] = selected(req, p, &g.item);
      out->n = 1;
    }
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
                      .start = o->start,
                      .preview = o->preview};
    sl_page_result page;
    if ((err = sl_query(req, &in, &page)) != SL_OK)
      return err;
    page_result(req, p, &page, out);
    return SL_OK;
  }
  case SL_PQL_OP_SCAN: {
    sl_scan_in in = {.t = p->t,
                     .x = p->x,
                     .ex = &p->rx,
                     .consistent = o->consistent,
                     .limit = o->limit,
                     .segment = o->segment,
                     .total = o->total ? o->total : 1,
                     .start = o->start,
                     .preview = o->preview};
    sl_page_result page;
    if ((err = sl_scan(req, &in, &page)) != SL_OK)
      return err;
    page_result(req, p, &page, out);
    return SL_OK;
  }
  case SL_PQL_OP_MULTI:
    return execute_multi(req, p, o, out);
  default:
    SL_ASSERT(0);
    return SL_E_VALIDATION;
  }
}

sl_err sl_pql_execute(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_result *out) {
  memset(out, 0, sizeof *out);
  sl_err err;
  p->wx.all_old_on_fail = o->all_old_on_fail;
  switch (p->op) {
  case SL_PQL_OP_GET:
  case SL_PQL_OP_QUERY:
  case SL_PQL_OP_SCAN:
  case SL_PQL_OP_MULTI:
    if ((err = execute_read(req, p, o, out)) != SL_OK)
      return err;
    sl_req_record_returned(req, (int64_t)out->n);
    return SL_OK;
  case SL_PQL_OP_PUT: {
    sl_put_item_in in = {
        .t = p->t, .item = &p->key, .kv = p->kv, .ex = &p->wx, .preview = o->preview};
    sl_put_item_out w = {0};
    err = sl_put_item(req, &in, &w);
    out->consumed = w.res.consumed; /* a failed condition costs too */
    out->cond_failed = w.res.cond_failed;
    out->would_throttle = w.res.would_throttle;
    out->old_bytes = w.res.old_bytes;
    out->new_bytes = w.res.new_bytes;
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
    sl_update_item_in in = {
        .t = p->t, .kv = p->kv, .ex = &p->wx, .rv = p->rv, .preview = o->preview};
    sl_update_item_out w = {0};
    err = sl_update_item(req, &in, &w);
    out->consumed = w.res.consumed; /* a failed condition costs too */
    out->cond_failed = w.res.cond_failed;
    out->would_throttle = w.res.would_throttle;
    out->old_bytes = w.res.old_bytes;
    out->new_bytes = w.res.new_bytes;
    if (err != SL_OK)
      return err;
    one_item(req, &w.res.attributes, out);
    return SL_OK;
  }
  case SL_PQL_OP_DELETE: {
    sl_delete_item_in in = {.t = p->t,
                            .kv = p->kv,
                            .ex = &p->wx,
                            .return_old = p->rv == SL_RV_ALL_OLD,
                            .preview = o->preview};
    sl_delete_item_out w = {0};
    err = sl_delete_item(req, &in, &w);
    out->consumed = w.res.consumed; /* a failed condition costs too */
    out->cond_failed = w.res.cond_failed;
    out->would_throttle = w.res.would_throttle;
    out->old_bytes = w.res.old_bytes;
    out->new_bytes = w.res.new_bytes;
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
