/*
 * ListBackups — backup summaries in creation order, one page.
 * Pinned by tests/conformance/test_backups.py.
 *
 * Request: TableName, Limit (1..100, the model checks it),
 * TimeRangeLowerBound / TimeRangeUpperBound (epoch seconds), ExclusiveStartBackupArn,
 * BackupType (sluice has only USER backups: SYSTEM and AWS_BACKUP list
 * nothing). Reply: BackupSummaries, LastEvaluatedBackupArn when more follow.
 */
#include "actions/actions.h"
#include "actions/backup_reply.h"

#include <stdlib.h>

/* A timestamp member (epoch seconds, maybe fractional) in milliseconds; 0 when absent. */
static int64_t time_ms(const sl_json *body, const char *member) {
  const sl_json *v = sl_json_get(body, member);
  if (!v || v->type != SL_JSON_NUMBER)
    return 0;
  char tmp[64];
  size_t n = v->str.len < sizeof(tmp) - 1 ? v->str.len : sizeof(tmp) - 1;
  memcpy(tmp, v->str.p, n);
  tmp[n] = 0;
  return (int64_t)(strtod(tmp, NULL) * 1000.0);
}

sl_err sl_action_list_backups(sl_req *req) {
  const sl_json *body = req->body;
  sl_list_backups_in in = {.table = sl_in_str(body, "TableName"),
                           .lower_ms = time_ms(body, "TimeRangeLowerBound"),
                           .upper_ms = time_ms(body, "TimeRangeUpperBound"),
                           .start = sl_in_str(body, "ExclusiveStartBackupArn"),
                           .limit = sl_in_int(body, "Limit", 0)};
  /* Checked before the table is looked up (ack-api-quirks DDB-TABLE-442). */
  if (sl_in_has(body, "TimeRangeLowerBound") && sl_in_has(body, "TimeRangeUpperBound") &&
      in.lower_ms > in.upper_ms)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Time range lower bound must be "
                   "less than or equal to upper bound");
  sl_str type = sl_in_str(body, "BackupType");
  sl_backup *list;
  size_t n = 0;
  bool more = false;
  sl_err err = sl_list_backups(req, &in, &list, &n, &more);
  if (err != SL_OK)
    return err;
  if (type.len && !sl_str_eq_c(type, "USER") && !sl_str_eq_c(type, "ALL"))
    n = 0, more = false;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "BackupSummaries");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < n; i++)
    sl_reply_backup_summary(req, w, &list[i]);
  sl_jw_arr_end(w);
  if (more && n) {
    sl_jw_key_c(w, "LastEvaluatedBackupArn");
    sl_jw_str(w, list[n - 1].arn);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
