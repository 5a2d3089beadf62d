/*
 * UpdateContributorInsights — enables or disables CloudWatch Contributor
 * Insights on a table or one of its GSIs (facts §8). Pinned by
 * tests/conformance/test_contributor_insights.py.
 *
 * Request: TableName (a name or a table ARN), IndexName,
 * ContributorInsightsAction (ENABLE | DISABLE), ContributorInsightsMode
 * (ACCESSED_AND_THROTTLED_KEYS, the default, | THROTTLED_KEYS); the model
 * checks the enums.
 * The service answers with the transitional status, ENABLING or DISABLING
 * (AWS CLI example), and gets to ENABLED / DISABLED a few seconds later;
 * sluice gets there at once, so the next DescribeContributorInsights already
 * says ENABLED. The state is kept in memory only (metrics/metrics.h).
 * Unknown tables and indexes (and LSIs, which have no Contributor Insights
 * of their own) are ResourceNotFoundException; the index message is an
 * inference, not a captured text. DynamoDB Local does not implement the
 * operation (UnknownOperationException).
 */
#include "actions/actions.h"
#include "ops/insights.h"

sl_err sl_action_update_contributor_insights(sl_req *req) {
  sl_str index = sl_in_str(req->body, "IndexName");
  bool enable = sl_str_eq_c(sl_in_str(req->body, "ContributorInsightsAction"), "ENABLE");
  bool throttled_only =
      sl_str_eq_c(sl_in_str(req->body, "ContributorInsightsMode"), "THROTTLED_KEYS");
  sl_ci_mode mode = !enable          ? SL_CI_DISABLED
                    : throttled_only ? SL_CI_THROTTLED_ONLY
                                     : SL_CI_ACCESSED_AND_THROTTLED;
  sl_ci_entry e;
  sl_err err =
      sl_update_contributor_insights(req, sl_in_str(req->body, "TableName"), index, mode, &e);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, e.table->name);
  if (index.len) {
    sl_jw_key_c(w, "IndexName");
    sl_jw_str(w, index);
  }
  sl_jw_key_c(w, "ContributorInsightsStatus");
  sl_jw_str_c(w, enable ? "ENABLING" : "DISABLING");
  if (enable) {
    sl_jw_key_c(w, "ContributorInsightsMode");
    sl_jw_str_c(w, throttled_only ? "THROTTLED_KEYS" : "ACCESSED_AND_THROTTLED_KEYS");
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
