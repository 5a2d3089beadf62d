/*
 * DescribeBackup — a backup's details and its source table's definition.
 * Pinned by tests/conformance/test_backups.py.
 *
 * Request: BackupArn. Reply: BackupDescription (ops/backups.h).
 */
#include "actions/actions.h"
#include "actions/backup_reply.h"

sl_err sl_action_describe_backup(sl_req *req) {
  sl_backup b;
  sl_table *def;
  sl_err err = sl_describe_backup(req, sl_in_str(req->body, "BackupArn"), &b, &def);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "BackupDescription");
  sl_reply_backup_description(w, &b, def, "AVAILABLE");
  sl_jw_obj_end(w);
  sl_table_free(def);
  return SL_OK;
}
