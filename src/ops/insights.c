/* Contributor Insights cores; see insights.h. */
#include "ops/insights.h"

/* The table and GSI a request names. */
static sl_err resolve(sl_req *req, sl_str table, sl_str index, sl_ci_entry *out) {
  sl_table *t;
  sl_err err = sl_req_lookup(req, table, SL_LOOKUP_CONTROL, &t);
  if (err != SL_OK)
    return err;
  memset(out, 0, sizeof(*out));
  out->table = t;
  out->index = index;
  out->has_sort = sl_key_has_range(&t->key);
  if (index.len) {
    const sl_index *x = sl_table_index(t, index);
    if (!x || !x->global)
      return sl_fail(req, SL_E_RESOURCE_NOT_FOUND,
                     "Requested resource not found: Index: %.*s not found", SL_STR_FMT(index));
    out->has_sort = sl_key_has_range(&x->key);
  }
  return SL_OK;
}

sl_err sl_describe_contributor_insights(sl_req *req, sl_str table, sl_str index, sl_ci_entry *out) {
  sl_err err = resolve(req, table, index, out);
  if (err != SL_OK)
    return err;
  out->st =
      sl_metrics_ci_get(req->env->metrics, out->table->name, index, sl_str_c(out->table->uuid));
  return SL_OK;
}

sl_err sl_update_contributor_insights(sl_req *req, sl_str table, sl_str index, sl_ci_mode mode,
                                      sl_ci_entry *out) {
  sl_err err = resolve(req, table, index, out);
  if (err != SL_OK)
    return err;
  sl_metrics_ci_set(req->env->metrics, out->table->name, index, sl_str_c(out->table->uuid), mode);
  out->st =
      sl_metrics_ci_get(req->env->metrics, out->table->name, index, sl_str_c(out->table->uuid));
  return SL_OK;
}

sl_err sl_list_contributor_insights(sl_req *req, sl_str table, int64_t max, sl_str token,
                                    sl_ci_list *out) {
  memset(out, 0, sizeof(*out));
  /* The token is checked before the table is looked up. */
  sl_str tok_table = token, tok_index = SL_STR_NULL;
  if (token.len) {
    const char *slash = memchr(token.p, '/', token.len);
    if (!slash)
      return sl_fail(req, SL_E_VALIDATION, "Invalid NextToken");
    tok_table = sl_str_make(token.p, (size_t)(slash - token.p));
    tok_index = sl_str_make(slash + 1, token.len - tok_table.len - 1);
  }
  sl_table *only = NULL;
  sl_err err;
  if (table.p && (err = sl_req_lookup(req, table, SL_LOOKUP_CONTROL, &only)) != SL_OK)
    return err;
  sl_metrics *m = req->env->metrics;
  sl_catalog *cat = req->env->catalog;
  out->e = SL_NEW_ARRAY(req->arena, sl_ci_entry, (size_t)max + 1);
  bool more = false, resumed = token.len == 0;
  size_t n_tables = sl_catalog_count(cat);
  for (size_t i = 0; i < n_tables && !more; i++) {
    sl_table *t = sl_catalog_at(cat, i);
    if (only && t != only)
      continue;
    /* The table itself (j == -1), then its GSIs. */
    for (int64_t j = -1; j < (int64_t)t->n_indexes; j++) {
      sl_str index = SL_STR_NULL;
      if (j >= 0) {
        if (!t->indexes[j].global)
          continue;
        index = t->indexes[j].name;
      }
      sl_ci_state st = sl_metrics_ci_get(m, t->name, index, sl_str_c(t->uuid));
      if (st.mode == SL_CI_DISABLED)
        continue;
      if (!resumed) {
        /* Skip to the token's entry; if it is gone, to the next table. */
        int c = sl_str_cmp(t->name, tok_table);
        if (c < 0 || (c == 0 && !sl_str_eq(index, tok_index)))
          continue;
        resumed = true;
      }
      if (out->n == max) {
        more = true;
        out->next_token =
            sl_arena_printf(req->arena, "%.*s/%.*s", SL_STR_FMT(t->name), SL_STR_FMT(index));
        break;
      }
      out->e[out->n++] = (sl_ci_entry){t, index, false, st};
    }
  }
  return SL_OK;
}
