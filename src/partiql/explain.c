/*
 * The cost preview of a SELECT plan: its core run in preview mode (ops/
 * pages.h: every page read and priced as it would be, nothing checked or
 * debited), page after page as a client pages with NextToken, so the total is
 * what running the statement costs. See partiql.h.
 */
#include "partiql/pql_int.h"

#include "cap/charge.h"
#include "ops/get_item.h"
#include "ops/query.h"
#include "ops/scan.h"

/* The resource's read limit now: a provisioned table's or GSI's RCU, an
 * on-demand one's configured maximum, else what its partitions serve. */
static int64_t read_limit(const sl_table *t, const sl_index *x, sl_cap_res *res) {
  const sl_throughput *tp = x && x->global ? &x->tp : &t->tp;
  if (tp->billing == SL_BILLING_PROVISIONED)
    return tp->rcu;
  if (tp->max_read_ru > 0)
    return tp->max_read_ru;
  int64_t rd = 0, wr = 0;
  if (res)
    sl_cap_res_serves(res, &rd, &wr);
  return rd;
}

sl_err sl_pql_explain(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_estimate *out) {
  memset(out, 0, sizeof *out);
  sl_err err;
  out->res = p->x && p->x->global ? p->x->cap : p->t->cap;
  out->limit_ups = read_limit(p->t, p->x, out->res);
  if (o->consistent && p->x && p->x->global)
    return sl_fail(req, SL_E_VALIDATION,
                   "Consistent reads are not supported on global secondary indexes");
  const sl_av *pk = NULL, *sk = NULL;
  if (p->op == SL_PQL_OP_GET) {
    sl_read_exprs whole = p->rx;
    whole.projection = NULL;
    sl_get_item_in in = {
        .t = p->t, .kv = p->kv, .consistent = o->consistent, .ex = &whole, .preview = true};
    sl_get_item_out g;
    if ((err = sl_get_item(req, &in, &g)) != SL_OK)
      return err;
    out->items = g.found;
    out->returned = g.found && sl_expr_eval(p->residual, &g.item);
    out->bytes = g.size;
    out->pages = 1;
    out->read_mu = out->first_page_mu = g.read_mu;
    pk = p->kv.hash;
    sk = p->kv.range;
  } else if (p->op == SL_PQL_OP_QUERY || p->op == SL_PQL_OP_SCAN) {
    const sl_item *start = o->start;
    for (;;) {
      sl_page_result page;
      if (p->op == SL_PQL_OP_QUERY) {
        sl_query_in in = {.t = p->t,
                          .x = p->x,
                          .kc = p->kc,
                          .ex = &p->rx,
                          .consistent = o->consistent,
                          .forward = p->forward,
                          .limit = o->limit,
                          .start = start,
                          .preview = true};
        err = sl_query(req, &in, &page);
      } else {
        sl_scan_in in = {.t = p->t,
                         .x = p->x,
                         .ex = &p->rx,
                         .consistent = o->consistent,
                         .limit = o->limit,
                         .segment = 0,
                         .total = 1,
                         .start = start,
                         .preview = true};
        err = sl_scan(req, &in, &page);
      }
      if (err != SL_OK)
        return err;
      int64_t mu = page.table_mu + page.index_mu;
      if (out->pages == 0)
        out->first_page_mu = mu;
      out->pages++;
      out->read_mu += mu;
      out->items += page.scanned;
      out->returned += (int64_t)page.n;
      out->bytes += page.bytes;
      if (!page.more)
        break;
      /* The next page starts after the last item read, as NextToken does. */
      sl_item *key = SL_NEW(req->arena, sl_item);
      key->attrs = SL_NEW_ARRAY(req->arena, sl_attr, 4);
      sl_page_copy_key_attrs(key, &page.last, &p->t->key);
      if (p->x)
        sl_page_copy_key_attrs(key, &page.last, &p->x->key);
      sl_item_canonicalize(key);
      start = key;
    }
    if (p->op == SL_PQL_OP_QUERY)
      pk = p->kc.hash;
  } else {
    return sl_fail(req, SL_E_VALIDATION,
                   "The cost preview explains SELECT statements (and Query and Scan requests)");
  }
  /* Would the first request be refused now? The check a request makes
   * before it reads (ops/pages.h; GetItem: its cost). */
  if (out->res) {
    sl_cap_charge c = sl_cap_charge_key(req->arena, out->res, SL_CAP_READ, pk, sk, p->x != NULL,
                                        p->op == SL_PQL_OP_GET ? out->first_page_mu : 0);
    sl_cap_verdict v;
    out->will_throttle = !sl_cap_check(req->env->cap, &c, 1, &v);
  }
  return SL_OK;
}

size_t sl_pql_alternatives(sl_req *req, const sl_pql_stmt *st, const sl_av *params, uint32_t n,
                           const sl_pql_opts *o, sl_pql_alternative *out, size_t cap) {
  size_t k = 0;
  sl_table *t = sl_catalog_get(req->env->catalog, st->table);
  if (!t || st->index.len || st->kind != SL_PQL_SELECT)
    return 0;
  sl_failure saved = req->fail;
  for (uint32_t i = 0; i < t->n_indexes && k < cap; i++) {
    const sl_index *x = &t->indexes[i];
    if (x->status != SL_STATUS_ACTIVE && x->status != SL_STATUS_UPDATING)
      continue;
    sl_pql_stmt alt = *st;
    alt.index = x->name;
    sl_pql_opts ao = *o;
    ao.start = NULL;
    if (x->global)
      ao.consistent = false;
    sl_failure_init(&req->fail, req->arena);
    sl_pql_alternative *a = &out[k];
    sl_pql_stmt *copy = SL_NEW(req->arena, sl_pql_stmt);
    *copy = alt;
    if (sl_pql_plan_make(req, copy, params, n, SL_PQL_IN_STATEMENT, &a->plan) != SL_OK ||
        a->plan.op != SL_PQL_OP_QUERY || sl_pql_explain(req, &a->plan, &ao, &a->est) != SL_OK)
      continue;
    a->x = x;
    k++;
  }
  req->fail = saved;
  /* Cheapest first (insertion sort: at most 25). */
  for (size_t i = 1; i < k; i++)
    for (size_t j = i; j > 0 && out[j].est.read_mu < out[j - 1].est.read_mu; j--) {
      sl_pql_alternative tmp = out[j];
      out[j] = out[j - 1];
      out[j - 1] = tmp;
    }
  return k;
}
