/*
 * CreateBackup — a full copy of a table's definition and items
 * (ops/backups.h), AVAILABLE at once.
 * Pinned by tests/conformance/test_backups.py.
 *
 * Request: TableName (a name or an ARN), BackupName. Reply: BackupDetails.
 */
#include "actions/actions.h"
#include "actions/backup_reply.h"

sl_err sl_action_create_backup(sl_req *req) {
  sl_backup b;
  sl_err err = sl_create_backup(req, sl_in_str(req->body, "TableName"),
                                sl_in_str(req->body, "BackupName"), &b);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "BackupDetails");
  sl_reply_backup_details(w, &b, "AVAILABLE");
  sl_jw_obj_end(w);
  return SL_OK;
}
