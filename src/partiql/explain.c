/*
 * The cost preview of a SELECT plan: the plan run by exec.c in preview mode
 * (ops/pages.h: every page read and priced as it would be, nothing checked or
 * debited), page after page as a client pages with NextToken, so the total is
 * what running the statement costs. See partiql.h.
 */
#include "partiql/pql_int.h"

#include "cap/charge.h"

/* The resource's read (or write) limit now: a provisioned table's or GSI's
 * RCU (WCU), an on-demand one's configured maximum, else what its
 * partitions serve. */
static int64_t limit_of(const sl_table *t, const sl_index *x, sl_cap_res *res, bool write) {
  const sl_throughput *tp = x && x->global ? &x->tp : &t->tp;
  if (tp->billing == SL_BILLING_PROVISIONED)
    return write ? tp->wcu : tp->rcu;
  int64_t max = write ? tp->max_write_ru : tp->max_read_ru;
  if (max > 0)
    return max;
  int64_t rd = 0, wr = 0;
  if (res)
    sl_cap_res_serves(res, &rd, &wr);
  return write ? wr : rd;
}

static int64_t read_limit(const sl_table *t, const sl_index *x, sl_cap_res *res) {
  return limit_of(t, x, res, false);
}

sl_err sl_pql_explain_write(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o,
                            sl_pql_write_estimate *out) {
  memset(out, 0, sizeof *out);
  if (p->op != SL_PQL_OP_PUT && p->op != SL_PQL_OP_UPDATE && p->op != SL_PQL_OP_DELETE)
    return sl_fail(req, SL_E_VALIDATION,
                   "The cost preview of a write explains INSERT, UPDATE and DELETE statements");
  sl_pql_opts po = *o;
  po.preview = true;
  sl_pql_result r;
  sl_err err = sl_pql_execute(req, p, &po, &r);
  if (err != SL_OK)
    return err;
  out->table_write_mu = r.consumed.table_write_mu;
  out->write_mu = r.consumed.table_write_mu;
  for (uint32_t i = 0; i < r.consumed.n_idx; i++)
    out->write_mu += r.consumed.idx[i].write_mu;
  out->old_bytes = r.old_bytes;
  out->new_bytes = r.new_bytes;
  out->cond_failed = r.cond_failed;
  out->will_throttle = r.would_throttle;
  out->res = p->t->cap;
  out->limit_ups = limit_of(p->t, NULL, out->res, true);
  return SL_OK;
}

sl_err sl_pql_explain(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_estimate *out) {
  memset(out, 0, sizeof *out);
  if (p->op != SL_PQL_OP_GET && p->op != SL_PQL_OP_QUERY && p->op != SL_PQL_OP_SCAN &&
      p->op != SL_PQL_OP_MULTI)
    return sl_fail(req, SL_E_VALIDATION,
                   "The cost preview explains SELECT statements (and Query and Scan requests)");
  out->res = p->x && p->x->global ? p->x->cap : p->t->cap;
  out->limit_ups = read_limit(p->t, p->x, out->res);
  /* Page after page, as a client follows NextToken. */
  sl_pql_opts po = *o;
  po.preview = true;
  for (;;) {
    sl_pql_result r;
    sl_err err = sl_pql_execute(req, p, &po, &r);
    if (err != SL_OK)
      return err;
    int64_t mu = r.consumed.table_read_mu;
    for (uint32_t i = 0; i < r.consumed.n_idx; i++)
      mu += r.consumed.idx[i].read_mu;
    if (out->pages == 0)
      out->first_page_mu = mu;
    out->pages++;
    out->read_mu += mu;
    out->items += r.scanned;
    out->returned += (int64_t)r.n;
    out->bytes += r.bytes;
    if (!r.more)
      break;
    sl_item *key = NULL;
    if (r.last_key.n) {
      key = SL_NEW(req->arena, sl_item);
      *key = r.last_key;
    }
    po.start = key;
    po.start_sub = r.next_sub;
  }
  /* Would the first request be refused now? The check a request makes
   * before it reads (ops/pages.h; GetItem: its cost). */
  const sl_pql_plan *first = p->op == SL_PQL_OP_MULTI && p->n_subs ? &p->subs[0] : p;
  const sl_av *pk = first->op == SL_PQL_OP_GET     ? first->kv.hash
                    : first->op == SL_PQL_OP_QUERY ? first->kc.hash
                                                   : NULL;
  const sl_av *sk = first->op == SL_PQL_OP_GET ? first->kv.range : NULL;
  if (out->res) {
    sl_cap_charge c = sl_cap_charge_key(req->arena, out->res, SL_CAP_READ, pk, sk, p->x != NULL,
                                        first->op == SL_PQL_OP_GET ? out->first_page_mu : 0);
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
