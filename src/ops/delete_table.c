/* DeleteTable's core; see delete_table.h. Pinned by tests/conformance/test_delete_table.py. */
#include "ops/delete_table.h"
#include "ops/indexes.h"
#include "ops/tables.h"
#include "metrics/metrics.h"

sl_err sl_delete_table(sl_req *req, sl_table *t, sl_table **out) {
  sl_err err;
  if ((err = sl_tables_check_settled(req, t)) != SL_OK ||
      (err = sl_indexes_check_delete_table(req, t)) != SL_OK)
    return err;
  /* A table UPDATING for a throughput, billing, stream or class change
   * (ACKQ DDB-TABLE-370 and -369, live; the DDB-TABLE-444 catalogue). Sluice's
   * UPDATING after a deletion-protection change, which the service does not
   * have, does not hold a DeleteTable back. Pinned by
   * tests/conformance/test_update_table_rules.py. */
  if (t->status == SL_STATUS_UPDATING &&
      (t->update_cause || t->tp.pending_rcu > 0 || t->tp.pending_wcu > 0))
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Table: %.*s is in the process of being updated.",
                   SL_STR_FMT(t->name));
  if (t->deletion_protection)
    return sl_fail(req, SL_E_VALIDATION,
                   "Resource cannot be deleted as it is currently protected against deletion. "
                   "Disable deletion protection first.");
  if ((err = sl_tables_drop(req->env, t, &req->fail)) != SL_OK)
    return err;
  req->table = NULL;
  sl_tables_detach_capacity(req->env, t);
  /* Metrics belong to this incarnation: a table created again under the
   * same name starts at zero, and /metrics stops showing this one. */
  if (req->env->metrics)
    sl_metrics_forget_table(req->env->metrics, t->name, t->key.hash, t->key.range);
  *out = sl_catalog_take(req->env->catalog, t->name);
  return SL_OK;
}
