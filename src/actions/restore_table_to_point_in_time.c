/*
 * RestoreTableToPointInTime — not supported: sluice keeps no history of a
 * table. After the source table's lookup (SourceTableName or
 * SourceTableArn) the request is answered with a ValidationException saying
 * so (ops/backups.h). Pinned by tests/conformance/test_backups.py.
 */
#include "actions/actions.h"
#include "ops/backups.h"

sl_err sl_action_restore_table_to_point_in_time(sl_req *req) {
  sl_str source = sl_in_str(req->body, "SourceTableName");
  if (!source.len)
    source = sl_in_str(req->body, "SourceTableArn");
  return sl_restore_table_to_point_in_time(req, source, sl_in_str(req->body, "TargetTableName"));
}
