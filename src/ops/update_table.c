/* UpdateTable's core; see update_table.h. Pinned by tests/conformance/test_update_table.py
 * and test_gsi_lifecycle.py. */
#include "ops/update_table.h"
#include "cap/cap.h"
#include "ops/tables.h"

sl_err sl_update_table(sl_req *req, sl_table *old, sl_table *t, sl_index_updates *gsi,
                       bool changed) {
  sl_err err;
  if (changed) {
    t->status = SL_STATUS_UPDATING;
    t->status_until_ms =
        (uint64_t)(req->now_ms + sl_cap_params_of(req->env->cap)->table_update_delay_ms);
  }
  if (gsi->created || gsi->deleted) {
    /* The table is UPDATING while the index's resources are allocated or
     * released (DDB-TABLE-148). */
    const sl_cap_params *p = sl_cap_params_of(req->env->cap);
    t->status = SL_STATUS_UPDATING;
    t->status_until_ms = (uint64_t)(req->now_ms + (gsi->created ? p->index_create_delay_ms
                                                                : p->table_update_delay_ms));
  }
  if ((err = sl_indexes_assign_ids(req, t)) != SL_OK)
    goto out;
  if ((err = sl_tables_commit_version(req, old, t)) != SL_OK)
    goto out;
  sl_indexes_committed(req, t, gsi);
  if (t->cap)
    sl_cap_res_configure(req->env->cap, t->cap, &t->tp);
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (t->indexes[i].cap)
      sl_cap_res_configure(req->env->cap, t->indexes[i].cap, &t->indexes[i].tp);
  req->table = t;
  return SL_OK;
out:
  sl_table_free(t);
  return err;
}
