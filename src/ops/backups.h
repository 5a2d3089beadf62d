/*
 * backups.h — the cores of on-demand backups (CreateBackup, DescribeBackup,
 * ListBackups, DeleteBackup, RestoreTableFromBackup) and of the continuous
 * backup settings (DescribeContinuousBackups, UpdateContinuousBackups,
 * RestoreTableToPointInTime), typed; the JSON sides are
 * actions/<operation>.c.
 *
 * Backups are real copies (store/backups.h): CreateBackup copies the table's
 * definition and items in one write transaction and is AVAILABLE at once;
 * RestoreTableFromBackup creates a new table from the definition (fresh
 * storage ids, TableId and ARN; CREATING like CreateTable; without the
 * source's tags, TTL, stream, deletion protection and point-in-time setting,
 * which the service does not restore either) and writes every item through
 * the write funnel, so its indexes are rebuilt, in one write transaction.
 * Its overrides apply to the new table's definition before any item is
 * written: BillingModeOverride, ProvisionedThroughputOverride and
 * OnDemandThroughputOverride (the table's, and the mode its GSIs follow);
 * GlobalSecondaryIndexOverride and LocalSecondaryIndexOverride (the indexes
 * the new table keeps, each one of the source's with the same key schema,
 * a GSI with its own throughput; the attribute definitions only a dropped
 * index used are dropped too). An SSESpecificationOverride asking for a KMS
 * key is refused (sluice has no KMS), one without is accepted. The texts are
 * the ack-api-quirks catalogue's (DDB-TABLE-442).
 *
 * Point-in-time recovery: the setting (PointInTimeRecoveryEnabled,
 * RecoveryPeriodInDays) is stored with the table and reported with its dates
 * (EarliestRestorableDateTime: when it was turned on, within the recovery
 * period; LatestRestorableDateTime: five minutes ago, the service's usual
 * lag), but sluice keeps no history: RestoreTableToPointInTime answers a
 * ValidationException saying so.
 *
 * Errors: a missing table is TableNotFoundException "Table not found: T", a
 * missing backup BackupNotFoundException "Backup not found: ARN", an existing
 * restore target TableAlreadyExistsException "Table already exists: T" (the
 * texts moto reproduces; botocore names the exceptions).
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_BACKUPS_H
#define SL_OPS_BACKUPS_H

#include "ops/req.h"
#include "ops/schema.h"
#include "store/backups.h"

/* LatestRestorableDateTime lags the clock by this much. */
#define SL_PITR_LAG_MS (5 * 60 * 1000)

/* CreateBackup of the table 'table' (a name or an ARN) names. */
sl_err sl_create_backup(sl_req *req, sl_str table, sl_str name, sl_backup *out);
/* The backup 'arn' names and its source table's definition (*def is the
 * caller's to free with sl_table_free). */
sl_err sl_describe_backup(sl_req *req, sl_str arn, sl_backup *out, sl_table **def);
/* ListBackups: in creation order, of 'table' (empty: all), created within
 * [lower_ms, upper_ms] (0: no bound), after 'start' (an ARN, or empty), at
 * most 'limit' (0: no limit); *more tells whether more follow. */
typedef struct {
  sl_str table;
  int64_t lower_ms, upper_ms;
  sl_str start;
  int64_t limit;
} sl_list_backups_in;
sl_err sl_list_backups(sl_req *req, const sl_list_backups_in *in, sl_backup **out, size_t *n_out,
                       bool *more);
/* DeleteBackup: the backup as it was, and its source definition. */
sl_err sl_delete_backup(sl_req *req, sl_str arn, sl_backup *out, sl_table **def);
/* One entry of GlobalSecondaryIndexOverride or LocalSecondaryIndexOverride. */
typedef struct {
  sl_str name;          /* IndexName */
  sl_key_schema_in key; /* KeySchema */
  sl_units_in pt, od;   /* ProvisionedThroughput, OnDemandThroughput (GSIs) */
} sl_restore_index_in;

/* RestoreTableFromBackup's overrides as sent (absent members empty). */
typedef struct {
  sl_str billing;     /* BillingModeOverride */
  sl_units_in pt, od; /* ProvisionedThroughputOverride, OnDemandThroughputOverride */
  bool has_gsi, has_lsi;
  const sl_restore_index_in *gsi, *lsi;
  uint32_t n_gsi, n_lsi;
} sl_restore_overrides_in;

/* RestoreTableFromBackup into a new table 'target' with the overrides 'o';
 * req->table is the new table. */
sl_err sl_restore_table_from_backup(sl_req *req, sl_str target, sl_str arn,
                                    const sl_restore_overrides_in *o);

/* DescribeContinuousBackups: the table (its pitr_* settings). */
sl_err sl_describe_continuous_backups(sl_req *req, sl_str table, sl_table **out);
/* UpdateContinuousBackups; days 0: unchanged (35 when first enabled). */
sl_err sl_update_continuous_backups(sl_req *req, sl_str table, bool enabled, uint32_t days,
                                    sl_table **out);
/* RestoreTableToPointInTime: the source table's lookup, then the refusal. */
sl_err sl_restore_table_to_point_in_time(sl_req *req, sl_str source, sl_str target);

#endif
