/*
 * insights.h — the cores of DescribeContributorInsights,
 * UpdateContributorInsights and ListContributorInsights: the state of
 * Contributor Insights per table or GSI lives in metrics/ (with its top-k
 * data); these resolve the table and index with the service's errors and
 * read or change that state (facts §8). Pinned by
 * tests/conformance/test_contributor_insights.py.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_INSIGHTS_H
#define SL_OPS_INSIGHTS_H

#include "ops/req.h"
#include "metrics/metrics.h"

/* One table or GSI's Contributor Insights. */
typedef struct {
  const sl_table *table;
  sl_str index;   /* empty for the table */
  bool has_sort;  /* the resource's key has a sort key (which rules exist) */
  sl_ci_state st; /* mode DISABLED: never enabled, or disabled */
} sl_ci_entry;

/* The state of the table 'table' names, or of its GSI 'index' (when not
 * empty): ResourceNotFoundException for an unknown table or index. */
sl_err sl_describe_contributor_insights(sl_req *req, sl_str table, sl_str index, sl_ci_entry *out);
/* Enables (mode != SL_CI_DISABLED) or disables it, at the current clock
 * time. */
sl_err sl_update_contributor_insights(sl_req *req, sl_str table, sl_str index, sl_ci_mode mode,
                                      sl_ci_entry *out);

/* ListContributorInsights: the enabled resources, tables by name, each table
 * before its GSIs (creation order), of one table when 'table' is not empty;
 * at most 'max' entries from the one 'token' names ("<table>/<index>", empty
 * to start), and the token of the next page (empty when none). A vanished
 * token entry resumes at the next table. */
typedef struct {
  sl_ci_entry *e; /* arena array */
  uint32_t n;
  sl_str next_token;
} sl_ci_list;
sl_err sl_list_contributor_insights(sl_req *req, sl_str table, int64_t max, sl_str token,
                                    sl_ci_list *out);

#endif
