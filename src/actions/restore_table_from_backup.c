/*
 * RestoreTableFromBackup — a new table from a backup: its definition and
 * items, indexes rebuilt (ops/backups.h). Pinned by
 * tests/conformance/test_backups.py.
 *
 * Request: TargetTableName, BackupArn; the overrides (BillingModeOverride,
 * GlobalSecondaryIndexOverride, LocalSecondaryIndexOverride,
 * ProvisionedThroughputOverride, OnDemandThroughputOverride,
 * SSESpecificationOverride) are refused, naming the member. Reply:
 * TableDescription of the new table (CREATING, like CreateTable's).
 */
#include "actions/actions.h"
#include "actions/describe.h"
#include "base/log.h"
#include "ops/backups.h"

sl_err sl_action_restore_table_from_backup(sl_req *req) {
  static const char *const overrides[] = {
      "BillingModeOverride",         "GlobalSecondaryIndexOverride",
      "LocalSecondaryIndexOverride", "ProvisionedThroughputOverride",
      "OnDemandThroughputOverride",  "SSESpecificationOverride",
  };
  sl_str override = SL_STR_NULL;
  for (size_t i = 0; i < SL_ARRAY_LEN(overrides) && !override.len; i++)
    if (sl_in_has(req->body, overrides[i]))
      override = sl_str_c(overrides[i]);
  sl_err err = sl_restore_table_from_backup(req, sl_in_str(req->body, "TargetTableName"),
                                            sl_in_str(req->body, "BackupArn"), override);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableDescription");
  sl_describe_table(req, req->table, SL_STATUS_CREATING);
  sl_jw_obj_end(w);
  return SL_OK;
}
