/*
 * backup_reply.h — the reply shapes the backup operations share (botocore's
 * BackupDetails, BackupDescription with SourceTableDetails and
 * SourceTableFeatureDetails, BackupSummary, ContinuousBackupsDescription),
 * written from ops/backups.h's typed results.
 */
#ifndef SL_ACTIONS_BACKUP_REPLY_H
#define SL_ACTIONS_BACKUP_REPLY_H

#include "ops/backups.h"

/* BackupDetails of 'b' with BackupStatus 'status' ("AVAILABLE", "DELETED"). */
void sl_reply_backup_details(sl_jw *w, const sl_backup *b, const char *status);
/* BackupDescription: details, the source table's details and features. */
void sl_reply_backup_description(sl_jw *w, const sl_backup *b, const sl_table *def,
                                 const char *status);
/* BackupSummary. */
void sl_reply_backup_summary(sl_req *req, sl_jw *w, const sl_backup *b);
/* {"ContinuousBackupsDescription": {...}} of 't' at 'now_ms'. */
void sl_reply_continuous_backups(sl_jw *w, const sl_table *t, int64_t now_ms);

#endif
