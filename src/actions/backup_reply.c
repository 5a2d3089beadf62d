/* Reply shapes of the backup operations; see backup_reply.h. Pinned by
 * tests/conformance/test_backups.py. */
#include "actions/backup_reply.h"
#include "actions/describe.h"
#include "actions/reply.h"
#include "store/catalog.h"

void sl_reply_backup_details(sl_jw *w, const sl_backup *b, const char *status) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "BackupArn");
  sl_jw_str(w, b->arn);
  sl_jw_key_c(w, "BackupName");
  sl_jw_str(w, b->name);
  sl_jw_key_c(w, "BackupSizeBytes");
  sl_jw_int(w, (int64_t)b->size_bytes);
  sl_jw_key_c(w, "BackupStatus");
  sl_jw_str_c(w, status);
  sl_jw_key_c(w, "BackupType");
  sl_jw_str_c(w, "USER");
  sl_jw_key_c(w, "BackupCreationDateTime");
  sl_reply_time(w, (int64_t)b->created_ms);
  sl_jw_obj_end(w);
}

static void write_units(sl_jw *w, const sl_throughput *tp) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ReadCapacityUnits");
  sl_jw_int(w, tp->rcu);
  sl_jw_key_c(w, "WriteCapacityUnits");
  sl_jw_int(w, tp->wcu);
  sl_jw_obj_end(w);
}

static void write_indexes(sl_jw *w, const sl_table *t, bool global) {
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    if (x->global != global)
      continue;
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "IndexName");
    sl_jw_str(w, x->name);
    sl_jw_key_c(w, "KeySchema");
    sl_describe_key_schema(w, &x->key);
    sl_jw_key_c(w, "Projection");
    sl_describe_projection(w, x);
    if (global) {
      sl_jw_key_c(w, "ProvisionedThroughput");
      write_units(w, &x->tp);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

void sl_reply_backup_description(sl_jw *w, const sl_backup *b, const sl_table *def,
                                 const char *status) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "BackupDetails");
  sl_reply_backup_details(w, b, status);
  sl_jw_key_c(w, "SourceTableDetails");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, def->name);
  sl_jw_key_c(w, "TableId");
  sl_jw_str_c(w, def->uuid);
  sl_jw_key_c(w, "TableArn");
  sl_jw_str(w, def->arn);
  sl_jw_key_c(w, "TableSizeBytes");
  sl_jw_int(w, (int64_t)b->size_bytes);
  sl_jw_key_c(w, "KeySchema");
  sl_describe_key_schema(w, &def->key);
  sl_jw_key_c(w, "TableCreationDateTime");
  sl_reply_time(w, (int64_t)def->created_ms);
  sl_jw_key_c(w, "ProvisionedThroughput");
  write_units(w, &def->tp);
  sl_jw_key_c(w, "ItemCount");
  sl_jw_int(w, (int64_t)b->item_count);
  sl_jw_key_c(w, "BillingMode");
  sl_jw_str_c(w, def->tp.billing == SL_BILLING_PAY_PER_REQUEST ? "PAY_PER_REQUEST" : "PROVISIONED");
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "SourceTableFeatureDetails");
  sl_jw_obj_begin(w);
  bool lsi = false, gsi = false;
  for (uint32_t i = 0; i < def->n_indexes; i++) {
    lsi |= !def->indexes[i].global;
    gsi |= def->indexes[i].global;
  }
  if (lsi) {
    sl_jw_key_c(w, "LocalSecondaryIndexes");
    write_indexes(w, def, false);
  }
  if (gsi) {
    sl_jw_key_c(w, "GlobalSecondaryIndexes");
    write_indexes(w, def, true);
  }
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
}

void sl_reply_backup_summary(sl_req *req, sl_jw *w, const sl_backup *b) {
  sl_table *def = sl_catalog_decode(b->table_record);
  sl_jw_obj_begin(w);
  if (def) {
    sl_jw_key_c(w, "TableName");
    sl_jw_str(w, def->name);
    sl_jw_key_c(w, "TableId");
    sl_jw_str_c(w, def->uuid);
    sl_jw_key_c(w, "TableArn");
    sl_jw_str(w, def->arn);
  }
  sl_jw_key_c(w, "BackupArn");
  sl_jw_str(w, b->arn);
  sl_jw_key_c(w, "BackupName");
  sl_jw_str(w, b->name);
  sl_jw_key_c(w, "BackupCreationDateTime");
  sl_reply_time(w, (int64_t)b->created_ms);
  sl_jw_key_c(w, "BackupStatus");
  sl_jw_str_c(w, "AVAILABLE");
  sl_jw_key_c(w, "BackupType");
  sl_jw_str_c(w, "USER");
  sl_jw_key_c(w, "BackupSizeBytes");
  sl_jw_int(w, (int64_t)b->size_bytes);
  sl_jw_obj_end(w);
  sl_table_free(def);
  (void)req;
}

void sl_reply_continuous_backups(sl_jw *w, const sl_table *t, int64_t now_ms) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ContinuousBackupsDescription");
  sl_jw_obj_begin(w);
  /* On-demand backups are always available: the service reports ENABLED. */
  sl_jw_key_c(w, "ContinuousBackupsStatus");
  sl_jw_str_c(w, "ENABLED");
  sl_jw_key_c(w, "PointInTimeRecoveryDescription");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "PointInTimeRecoveryStatus");
  sl_jw_str_c(w, t->pitr_enabled ? "ENABLED" : "DISABLED");
  if (t->pitr_enabled) {
    sl_jw_key_c(w, "RecoveryPeriodInDays");
    sl_jw_int(w, t->pitr_days);
    int64_t period_start = now_ms - (int64_t)t->pitr_days * 86400000;
    int64_t earliest =
        (int64_t)t->pitr_enabled_ms > period_start ? (int64_t)t->pitr_enabled_ms : period_start;
    int64_t latest = now_ms - SL_PITR_LAG_MS > earliest ? now_ms - SL_PITR_LAG_MS : earliest;
    sl_jw_key_c(w, "EarliestRestorableDateTime");
    sl_reply_time(w, earliest);
    sl_jw_key_c(w, "LatestRestorableDateTime");
    sl_reply_time(w, latest);
  }
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
}
