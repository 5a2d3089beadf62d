/*
 * ListContributorInsights — ContributorInsightsSummary entries (TableName,
 * IndexName, ContributorInsightsStatus, ContributorInsightsMode) of the
 * tables and GSIs that have Contributor Insights enabled, or of one table
 * and its GSIs when TableName is given (facts §8). Pinned by
 * tests/conformance/test_contributor_insights.py.
 *
 * Order: tables by name, each table before its GSIs (in creation order).
 * Pages: MaxResults (the model allows at most 100; absent, zero or
 * negative: 100) entries, then a NextToken naming the next entry
 * ("<table>/<index>"), which resumes the listing there even if tables came
 * or went in between (a vanished entry resumes at the next table). Listing only enabled resources
 * is an inference: every published example shows ENABLED entries only. DynamoDB Local does not
 * implement the operation.
 */
#include "actions/actions.h"
#include "ops/req.h"
#include "metrics/metrics.h"

sl_err sl_action_list_contributor_insights(sl_req *req) {
  sl_table *only = NULL;
  sl_err err;
  if (sl_in_has(req->body, "TableName") &&
      (err = sl_in_table(req, "TableName", SL_LOOKUP_CONTROL, &only)) != SL_OK)
    return err;
  int64_t max = sl_in_int(req->body, "MaxResults", 100);
  if (max <= 0 || max > 100)
    max = 100;
  sl_str token = sl_in_str(req->body, "NextToken");
  sl_str tok_table = token, tok_index = SL_STR_NULL;
  if (token.len) {
    const char *slash = memchr(token.p, '/', token.len);
    if (!slash)
      return sl_fail(req, SL_E_VALIDATION, "Invalid NextToken");
    tok_table = sl_str_make(token.p, (size_t)(slash - token.p));
    tok_index = sl_str_make(slash + 1, token.len - tok_table.len - 1);
  }

  sl_metrics *m = req->env->metrics;
  sl_catalog *cat = req->env->catalog;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ContributorInsightsSummaries");
  sl_jw_arr_begin(w);
  int64_t n = 0;
  sl_str next_table = SL_STR_NULL, next_index = SL_STR_NULL;
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
      if (n == max) {
        more = true;
        next_table = t->name;
        next_index = index;
        break;
      }
      n++;
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "TableName");
      sl_jw_str(w, t->name);
      if (index.len) {
        sl_jw_key_c(w, "IndexName");
        sl_jw_str(w, index);
      }
      sl_jw_key_c(w, "ContributorInsightsStatus");
      sl_jw_str_c(w, "ENABLED");
      sl_jw_key_c(w, "ContributorInsightsMode");
      sl_jw_str_c(w, st.mode == SL_CI_THROTTLED_ONLY ? "THROTTLED_KEYS"
                                                     : "ACCESSED_AND_THROTTLED_KEYS");
      sl_jw_obj_end(w);
    }
  }
  sl_jw_arr_end(w);
  if (more) {
    sl_jw_key_c(w, "NextToken");
    sl_jw_str(w, sl_arena_printf(req->arena, "%.*s/%.*s", SL_STR_FMT(next_table),
                                 SL_STR_FMT(next_index)));
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
