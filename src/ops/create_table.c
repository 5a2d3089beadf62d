/* CreateTable's core; see create_table.h. Pinned by tests/conformance/test_create_table.py. */
#include "ops/create_table.h"
#include "cap/cap.h"
#include "ops/tables.h"
#include "ops/throughput.h"
#include "streams/streams.h"

sl_err sl_create_table(sl_req *req, sl_table *t) {
  sl_txn *txn = NULL;
  sl_err err;
  if (sl_catalog_get(req->env->catalog, t->name)) {
    err = sl_fail(req, SL_E_RESOURCE_IN_USE, "Table already exists: %.*s", SL_STR_FMT(t->name));
    goto out;
  }
  const sl_cap_params *p = sl_cap_params_of(req->env->cap);
  if ((int64_t)sl_catalog_count(req->env->catalog) >= p->max_tables) {
    err = sl_fail(req, SL_E_LIMIT_EXCEEDED,
                  "Subscriber limit exceeded: You have exceeded the maximum number of tables "
                  "allowed (%lld) for the account in %s",
                  (long long)p->max_tables, req->env->region);
    goto out;
  }
  if ((err = sl_tp_check_quotas(req, t, NULL)) != SL_OK)
    goto out;
  t->created_ms = (uint64_t)req->now_ms;
  t->status = SL_STATUS_CREATING;
  /* With --delays realistic the GSIs created with a table become ACTIVE
   * with it (jobs/env.h; DDB-TABLE-148: "everything flips to ACTIVE
   * together"). */
  int64_t delay = sl_env_delay_ms(req->env, SL_DELAY_TABLE_CREATE);
  int64_t index_delay = sl_env_index_with_table_ms(req->env, delay);
  t->status_until_ms = (uint64_t)(req->now_ms + delay);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    t->indexes[i].status = SL_STATUS_CREATING;
    t->indexes[i].status_until_ms = (uint64_t)(req->now_ms + index_delay);
  }
  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    goto out;
  if ((err = sl_tables_identity(req, txn, t)) != SL_OK)
    goto out;
  if ((err = sl_streams_sync(req->env->streams, txn, NULL, t, req->now_ms, &req->fail)) != SL_OK)
    goto out;
  t->version = 1;
  if ((err = sl_catalog_save(txn, t, &req->fail)) != SL_OK)
    goto out;
  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err != SL_OK)
    goto out;
  sl_tables_attach_capacity(req->env, t);
  sl_catalog_install(req->env->catalog, t);
  req->table = t;
  return SL_OK;
out:
  if (txn)
    sl_store_abort(txn);
  sl_table_free(t);
  return err;
}
