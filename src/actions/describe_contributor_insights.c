/*
 * DescribeContributorInsights — the Contributor Insights state of a table or
 * GSI (facts §8). Pinned by tests/conformance/test_contributor_insights.py.
 *
 * Response: TableName, IndexName (when asked for), ContributorInsightsStatus
 * (ENABLED or DISABLED: sluice has no transitional state), and while enabled
 * ContributorInsightsMode and ContributorInsightsRuleList; LastUpdateDateTime
 * once the state was ever changed.
 * Rule names (DG contributorinsights_HowItWorks):
 * DynamoDBContributorInsights-{PKC,SKC,PKT,SKT}-<resource>-<creation ms>,
 * in the order of the AWS CLI example (PKC, SKC, PKT, SKT); SKC and SKT only
 * when the table or GSI has a sort key; THROTTLED_KEYS mode creates only the
 * throttled-key rules (PKT, SKT: an inference from the mode's definition).
 * <resource> is the table name, also for a GSI, as in the AWS CLI example
 * describing AlbumTitle-index of MusicCollection.
 * DynamoDB Local does not implement the operation.
 */
#include "actions/actions.h"
#include "ops/insights.h"

sl_err sl_action_describe_contributor_insights(sl_req *req) {
  sl_str index = sl_in_str(req->body, "IndexName");
  sl_ci_entry e;
  sl_err err = sl_describe_contributor_insights(req, sl_in_str(req->body, "TableName"), index, &e);
  if (err != SL_OK)
    return err;
  const sl_table *t = e.table;
  sl_ci_state st = e.st;
  bool has_sort = e.has_sort;
  bool enabled = st.mode != SL_CI_DISABLED;

  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, t->name);
  if (index.len) {
    sl_jw_key_c(w, "IndexName");
    sl_jw_str(w, index);
  }
  if (enabled) {
    static const char *const kinds[] = {"PKC", "SKC", "PKT", "SKT"};
    sl_jw_key_c(w, "ContributorInsightsRuleList");
    sl_jw_arr_begin(w);
    for (int i = 0; i < 4; i++) {
      bool sort_rule = i % 2 == 1, accessed_rule = i < 2;
      if ((sort_rule && !has_sort) || (accessed_rule && st.mode == SL_CI_THROTTLED_ONLY))
        continue;
      sl_jw_str(w, sl_arena_printf(req->arena, "DynamoDBContributorInsights-%s-%.*s-%lld", kinds[i],
                                   SL_STR_FMT(t->name), (long long)st.created_ms));
    }
    sl_jw_arr_end(w);
  }
  sl_jw_key_c(w, "ContributorInsightsStatus");
  sl_jw_str_c(w, enabled ? "ENABLED" : "DISABLED");
  if (st.updated_ms) {
    sl_jw_key_c(w, "LastUpdateDateTime");
    sl_reply_time(w, st.updated_ms);
  }
  if (enabled) {
    sl_jw_key_c(w, "ContributorInsightsMode");
    sl_jw_str_c(w,
                st.mode == SL_CI_THROTTLED_ONLY ? "THROTTLED_KEYS" : "ACCESSED_AND_THROTTLED_KEYS");
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
