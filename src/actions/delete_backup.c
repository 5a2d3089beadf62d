/*
 * DeleteBackup — removes a backup (its record and item copy, in one
 * transaction). Pinned by tests/conformance/test_backups.py.
 *
 * Request: BackupArn. Reply: the BackupDescription with BackupStatus DELETED.
 */
#include "actions/actions.h"
#include "actions/backup_reply.h"

sl_err sl_action_delete_backup(sl_req *req) {
  sl_backup b;
  sl_table *def;
  sl_err err = sl_delete_backup(req, sl_in_str(req->body, "BackupArn"), &b, &def);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "BackupDescription");
  sl_reply_backup_description(w, &b, def, "DELETED");
  sl_jw_obj_end(w);
  sl_table_free(def);
  return SL_OK;
}
