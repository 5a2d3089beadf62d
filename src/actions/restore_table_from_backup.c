/*
 * RestoreTableFromBackup — a new table from a backup: its definition and
 * items, indexes rebuilt, with the request's overrides applied
 * (ops/backups.h). Pinned by tests/conformance/test_backups.py.
 *
 * Request: TargetTableName, BackupArn; the overrides BillingModeOverride,
 * ProvisionedThroughputOverride, OnDemandThroughputOverride,
 * GlobalSecondaryIndexOverride and LocalSecondaryIndexOverride (IndexName,
 * KeySchema, and for a GSI ProvisionedThroughput and OnDemandThroughput; the
 * projection is the source index's), and SSESpecificationOverride (a KMS key
 * is refused: sluice has no KMS). Reply: TableDescription of the new table
 * (CREATING, like CreateTable's).
 */
#include "actions/actions.h"
#include "actions/describe.h"
#include "base/log.h"
#include "ops/backups.h"

/* GlobalSecondaryIndexOverride or LocalSecondaryIndexOverride, entry by entry. */
static const sl_restore_index_in *read_indexes(sl_req *req, const sl_json *list, uint32_t *n) {
  *n = list ? (uint32_t)list->arr.n : 0;
  sl_restore_index_in *e = SL_NEW_ARRAY(req->arena, sl_restore_index_in, *n + 1);
  for (uint32_t i = 0; i < *n; i++) {
    const sl_json *o = list->arr.items[i];
    e[i].name = sl_in_str(o, "IndexName");
    e[i].key = sl_in_key_schema(req->arena, sl_json_get(o, "KeySchema"));
    e[i].pt = sl_in_units(sl_json_get(o, "ProvisionedThroughput"), "ReadCapacityUnits",
                          "WriteCapacityUnits");
    e[i].od = sl_in_units(sl_json_get(o, "OnDemandThroughput"), "MaxReadRequestUnits",
                          "MaxWriteRequestUnits");
  }
  return e;
}

sl_err sl_action_restore_table_from_backup(sl_req *req) {
  const sl_json *body = req->body;
  const sl_json *sse = sl_in_obj(body, "SSESpecificationOverride");
  if (sse && (sl_in_bool(sse, "Enabled", false) || sl_in_has(sse, "KMSMasterKeyId") ||
              sl_str_eq_c(sl_in_str(sse, "SSEType"), "KMS")))
    return sl_fail(req, SL_E_VALIDATION,
                   "sluice does not support SSESpecificationOverride with a KMS key (server-side "
                   "encryption with AWS KMS); see README: Not supported");
  sl_restore_overrides_in o = {0};
  o.billing = sl_in_str(body, "BillingModeOverride");
  o.pt = sl_in_units(sl_json_get(body, "ProvisionedThroughputOverride"), "ReadCapacityUnits",
                     "WriteCapacityUnits");
  o.od = sl_in_units(sl_json_get(body, "OnDemandThroughputOverride"), "MaxReadRequestUnits",
                     "MaxWriteRequestUnits");
  const sl_json *gsi = sl_in_arr(body, "GlobalSecondaryIndexOverride");
  const sl_json *lsi = sl_in_arr(body, "LocalSecondaryIndexOverride");
  o.has_gsi = gsi != NULL;
  o.has_lsi = lsi != NULL;
  o.gsi = read_indexes(req, gsi, &o.n_gsi);
  o.lsi = read_indexes(req, lsi, &o.n_lsi);
  sl_err err = sl_restore_table_from_backup(req, sl_in_str(body, "TargetTableName"),
                                            sl_in_str(body, "BackupArn"), &o);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableDescription");
  sl_describe_table(req, req->table, SL_STATUS_CREATING);
  sl_jw_obj_end(w);
  return SL_OK;
}
