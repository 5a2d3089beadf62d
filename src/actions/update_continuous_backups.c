/*
 * UpdateContinuousBackups — turns point-in-time recovery on or off (stored
 * with the table, reported by DescribeContinuousBackups; sluice does not
 * restore to a point in time, ops/backups.h). Pinned by
 * tests/conformance/test_backups.py.
 *
 * Request: TableName, PointInTimeRecoverySpecification
 * {PointInTimeRecoveryEnabled, RecoveryPeriodInDays (1..35, the model checks
 * it)}. Reply: ContinuousBackupsDescription.
 */
#include "actions/actions.h"
#include "actions/backup_reply.h"

sl_err sl_action_update_continuous_backups(sl_req *req) {
  const sl_json *spec = sl_json_get(req->body, "PointInTimeRecoverySpecification");
  bool enabled = sl_in_bool(spec, "PointInTimeRecoveryEnabled", false);
  uint32_t days = (uint32_t)sl_in_int(spec, "RecoveryPeriodInDays", 0);
  sl_table *t;
  sl_err err =
      sl_update_continuous_backups(req, sl_in_str(req->body, "TableName"), enabled, days, &t);
  if (err != SL_OK)
    return err;
  sl_reply_continuous_backups(&req->w, t, req->now_ms);
  return SL_OK;
}
