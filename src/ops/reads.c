/* Read-side options bound to a table; see reads.h. */
#include "ops/reads.h"
#include "base/log.h"
#include "expr/expr.h"

sl_err sl_reads_index(sl_req *req, const sl_table *t, sl_str name, const sl_index **out) {
  *out = NULL;
  if (!name.p)
    return SL_OK;
  const sl_index *x = sl_table_index(t, name);
  if (!x)
    return sl_fail(req, SL_E_VALIDATION, "The table does not have the specified index: %.*s",
                   SL_STR_FMT(name));
  if (x->global && (x->backfilling || x->status == SL_STATUS_CREATING))
    return sl_fail(req, SL_E_VALIDATION,
                   "Cannot read from backfilling global secondary index: %.*s",
                   SL_STR_FMT(x->name));
  *out = x;
  return SL_OK;
}

/* Is every path of 'p' within the attributes an index entry holds? */
static bool projected(const sl_table *t, const sl_index *x, const sl_expr_proj *p) {
  if (x->projection == SL_PROJ_ALL)
    return true;
  for (uint32_t i = 0; i < p->n; i++) {
    sl_str top = p->paths[i].e[0].name;
    bool ok = sl_key_schema_uses(&t->key, top) || sl_key_schema_uses(&x->key, top);
    for (uint32_t j = 0; !ok && x->projection == SL_PROJ_INCLUDE && j < x->n_non_key; j++)
      ok = sl_str_eq(top, x->non_key[j]);
    if (!ok)
      return false;
  }
  return true;
}

/* A projected path into a primary-key attribute (pk.a, sk[0]) is an error:
 * key attributes are scalars (the text DynamoDB Local shares with the
 * service's key-condition check, expr/keycond.c). */
static sl_err check_key_paths(sl_req *req, const sl_table *t, const sl_expr_proj *proj) {
  for (uint32_t i = 0; proj && i < proj->n; i++) {
    const sl_expr_path *p = &proj->paths[i];
    if (p->n < 2 || p->e[0].kind != SL_EXPR_ELEM_NAME)
      continue;
    sl_str name = p->e[0].name;
    if (sl_str_eq(name, t->key.hash) ||
        (sl_key_has_range(&t->key) && sl_str_eq(name, t->key.range)))
      return sl_fail(req, SL_E_VALIDATION,
                     "Key attributes must be scalars; list random access '[]' and map lookup '.' "
                     "are not allowed: Key: %.*s",
                     SL_STR_FMT(name));
  }
  return SL_OK;
}

sl_err sl_reads_bind(sl_req *req, const sl_table *t, const sl_index *x, sl_read_exprs *ex) {
  sl_err err = check_key_paths(req, t, ex->projection);
  if (err != SL_OK)
    return err;
  if (!x || x->projection == SL_PROJ_ALL)
    return SL_OK;
  bool all = ex->select == SL_SELECT_ALL_ATTRIBUTES;
  if (x->global && all)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not "
                   "supported for global secondary index %.*s because its projection type is not "
                   "ALL",
                   SL_STR_FMT(x->name));
  /* An LSI can serve any attribute by fetching the base item (facts §2.2: at
   * the cost of one more read of it). */
  const sl_expr_proj *proj = ex->projection;
  if (!x->global && (all || (proj && !projected(t, x, proj))))
    ex->fetch_base = true;
  return SL_OK;
}

static sl_err filter_item(sl_req *req, void *ctx, const sl_item *it, bool *keep) {
  (void)req;
  *keep = sl_expr_eval((const sl_expr *)ctx, it);
  return SL_OK;
}

void sl_reads_page_opts(sl_read_exprs *ex, sl_page_opts *o) {
  o->count_only = ex->select == SL_SELECT_COUNT;
  o->fetch_base = ex->fetch_base;
  if (ex->filter) {
    o->filter = filter_item;
    o->filter_ctx = ex->filter;
  }
}

sl_item sl_reads_project(sl_req *req, const sl_read_exprs *ex, const sl_item *it) {
  if (!ex->projection)
    return *it;
  return sl_expr_project(req->arena, (const sl_expr_proj *)ex->projection, it);
}
