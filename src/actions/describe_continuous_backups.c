/*
 * DescribeContinuousBackups — ContinuousBackupsStatus (always ENABLED) and
 * the point-in-time-recovery setting with its dates (ops/backups.h).
 * Pinned by tests/conformance/test_backups.py.
 */
#include "actions/actions.h"
#include "actions/backup_reply.h"

sl_err sl_action_describe_continuous_backups(sl_req *req) {
  sl_table *t;
  sl_err err = sl_describe_continuous_backups(req, sl_in_str(req->body, "TableName"), &t);
  if (err != SL_OK)
    return err;
  sl_reply_continuous_backups(&req->w, t, req->now_ms);
  return SL_OK;
}
