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
#include "ops/insights.h"

sl_err sl_action_list_contributor_insights(sl_req *req) {
  int64_t max = sl_in_int(req->body, "MaxResults", 100);
  if (max <= 0 || max > 100)
    max = 100;
  sl_ci_list list;
  sl_err err = sl_list_contributor_insights(req, sl_in_str(req->body, "TableName"), max,
                                            sl_in_str(req->body, "NextToken"), &list);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ContributorInsightsSummaries");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < list.n; i++) {
    const sl_ci_entry *e = &list.e[i];
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "TableName");
    sl_jw_str(w, e->table->name);
    if (e->index.len) {
      sl_jw_key_c(w, "IndexName");
      sl_jw_str(w, e->index);
    }
    sl_jw_key_c(w, "ContributorInsightsStatus");
    sl_jw_str_c(w, "ENABLED");
    sl_jw_key_c(w, "ContributorInsightsMode");
    sl_jw_str_c(w, e->st.mode == SL_CI_THROTTLED_ONLY ? "THROTTLED_KEYS"
                                                      : "ACCESSED_AND_THROTTLED_KEYS");
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  if (list.next_token.len) {
    sl_jw_key_c(w, "NextToken");
    sl_jw_str(w, list.next_token);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
