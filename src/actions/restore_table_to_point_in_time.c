/*
 * RestoreTableToPointInTime — not supported: sluice keeps no history of a
 * table. The request's own rules are checked first (exactly one source,
 * at most one restore time; tests/conformance/test_validation_order.py);
 * after the source table's lookup (SourceTableName or SourceTableArn) the
 * request is answered with a ValidationException saying
 * so (ops/backups.h). Pinned by tests/conformance/test_backups.py.
 */
#include "actions/actions.h"
#include "ops/backups.h"

sl_err sl_action_restore_table_to_point_in_time(sl_req *req) {
  /* The request's own rules come before the source table is looked up; the
   * texts are the ack-api-quirks catalogue's (DDB-TABLE-442). */
  bool by_name = sl_in_has(req->body, "SourceTableName");
  if (by_name == sl_in_has(req->body, "SourceTableArn"))
    return sl_fail(req, SL_E_VALIDATION,
                   "Must provide exactly one of: sourceTableArn, sourceTableName");
  if (sl_in_has(req->body, "RestoreDateTime") &&
      sl_in_bool(req->body, "UseLatestRestorableTime", false))
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime "
                   "must be specified, but not both");
  sl_str source = sl_in_str(req->body, by_name ? "SourceTableName" : "SourceTableArn");
  return sl_restore_table_to_point_in_time(req, source, sl_in_str(req->body, "TargetTableName"));
}
