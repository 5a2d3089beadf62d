/* Backup cores; see backups.h. Pinned by tests/conformance/test_backups.py. */
#include "ops/backups.h"
#include "cap/cap.h"
#include "ops/schema.h"
#include "ops/tables.h"
#include "store/catalog.h"
#include "store/items.h"

#include <stdio.h>
#include <stdlib.h>

#define PITR_DAYS_DEFAULT 35

/* The table a name or ARN names, or TableNotFoundException. */
static sl_err find_table(sl_req *req, sl_str given, sl_table **out) {
  sl_str name = given;
  if (sl_str_starts_with(given, SL_STR("arn:")))
    name = sl_req_arn_table_name(req, given);
  else {
    sl_err err = sl_req_check_table_name(req, given, "tableName");
    if (err != SL_OK)
      return err;
  }
  sl_table *t = name.len ? sl_catalog_get(req->env->catalog, name) : NULL;
  if (!t)
    return sl_fail(req, SL_E_TABLE_NOT_FOUND, "Table not found: %.*s",
                   SL_STR_FMT(name.len ? name : given));
  req->table = t;
  *out = t;
  return SL_OK;
}

static sl_err get_backup(sl_req *req, sl_txn *txn, sl_str arn, sl_backup *out) {
  bool found;
  sl_err err = sl_backup_get(txn, arn, req->arena, out, &found);
  if (err == SL_OK && !found)
    err = sl_fail(req, SL_E_BACKUP_NOT_FOUND, "Backup not found: %.*s", SL_STR_FMT(arn));
  return err;
}

static sl_err decode_def(sl_req *req, const sl_backup *b, sl_table **def) {
  *def = sl_catalog_decode(b->table_record);
  if (!*def)
    return sl_fail(req, SL_E_INTERNAL_SERVER_ERROR, "backup %.*s holds an unreadable table",
                   SL_STR_FMT(b->arn));
  return SL_OK;
}

sl_err sl_create_backup(sl_req *req, sl_str table, sl_str name, sl_backup *out) {
  sl_table *t;
  sl_err err = find_table(req, table, &t);
  if (err != SL_OK)
    return err;
  /* The service backs up only ACTIVE tables (TableInUseException otherwise;
   * its text is not published, so the state is named). */
  if (t->status != SL_STATUS_ACTIVE)
    return sl_fail(req, SL_E_RESOURCE_IN_USE, "Table %.*s is %s: a backup needs it ACTIVE",
                   SL_STR_FMT(t->name), sl_status_name((sl_status)t->status));
  sl_txn *txn;
  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  memset(out, 0, sizeof(*out));
  out->name = name;
  out->created_ms = (uint64_t)req->now_ms;
  /* The service's ARN form: table/<name>/backup/<ms, 14 digits>-<8 hex>. */
  out->arn = sl_arena_printf(req->arena, "%.*s/backup/%014llu-%08x", SL_STR_FMT(t->arn),
                             (unsigned long long)req->now_ms,
                             (unsigned)(sl_env_random(req->env) & 0xffffffffu));
  sl_buf rec;
  sl_buf_init(&rec, req->arena);
  sl_catalog_encode(&rec, t);
  out->table_record = sl_buf_str(&rec);
  if ((err = sl_store_next_id(txn, &out->items_id, &req->fail)) != SL_OK ||
      (err = sl_backup_create(txn, t, out, req->arena, &req->fail)) != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  return sl_store_commit(txn, &req->fail);
}

sl_err sl_describe_backup(sl_req *req, sl_str arn, sl_backup *out, sl_table **def) {
  sl_txn *txn;
  sl_err err = sl_req_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  if ((err = get_backup(req, txn, arn, out)) != SL_OK)
    return err;
  return decode_def(req, out, def);
}

/* The source table name inside a backup ARN. */
static sl_str backup_table(sl_req *req, const sl_backup *b) {
  const char *p = memmem(b->arn.p, b->arn.len, "/backup/", 8);
  return sl_req_arn_table_name(req, p ? sl_str_make(b->arn.p, (size_t)(p - b->arn.p)) : b->arn);
}

static int by_creation(const void *pa, const void *pb) {
  const sl_backup *a = pa, *b = pb;
  if (a->created_ms != b->created_ms)
    return a->created_ms < b->created_ms ? -1 : 1;
  /* Storage ids are handed out in order: the later backup has the larger. */
  return a->items_id < b->items_id ? -1 : a->items_id > b->items_id;
}

sl_err sl_list_backups(sl_req *req, const sl_list_backups_in *in, sl_backup **out, size_t *n_out,
                       bool *more) {
  sl_txn *txn;
  sl_err err = sl_req_snapshot(req, &txn);
  if (err != SL_OK)
    return err;
  sl_str table = in->table;
  if (sl_str_starts_with(table, SL_STR("arn:")))
    table = sl_req_arn_table_name(req, table);
  sl_backup *all;
  size_t n;
  if ((err = sl_backup_list(txn, req->arena, &all, &n)) != SL_OK)
    return err;
  qsort(all, n, sizeof(sl_backup), by_creation);
  size_t k = 0;
  bool started = in->start.len == 0;
  *more = false;
  for (size_t i = 0; i < n; i++) {
    if (!started) {
      started = sl_str_eq(all[i].arn, in->start);
      continue;
    }
    if (table.len && !sl_str_eq(backup_table(req, &all[i]), table))
      continue;
    if ((in->lower_ms && (int64_t)all[i].created_ms < in->lower_ms) ||
        (in->upper_ms && (int64_t)all[i].created_ms > in->upper_ms))
      continue;
    if (in->limit > 0 && (int64_t)k == in->limit) {
      *more = true;
      break;
    }
    all[k++] = all[i];
  }
  *out = all;
  *n_out = k;
  return SL_OK;
}

sl_err sl_delete_backup(sl_req *req, sl_str arn, sl_backup *out, sl_table **def) {
  sl_txn *txn;
  sl_err err = sl_store_begin(req->env->store, true, &req->fail, &txn);
  if (err != SL_OK)
    return err;
  if ((err = get_backup(req, txn, arn, out)) != SL_OK ||
      (err = sl_backup_delete(txn, out, req->arena, &req->fail)) != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  if ((err = sl_store_commit(txn, &req->fail)) != SL_OK)
    return err;
  return decode_def(req, out, def);
}

/* ---- restore ---- */

typedef struct {
  sl_req *req;
  sl_txn *txn;
  sl_table *t;
  sl_item *items; /* what was written, for the counters after commit */
  size_t n, cap;
} restore_ctx;

static sl_err restore_item(void *ctx, const sl_item *it) {
  restore_ctx *r = ctx;
  sl_keyvals kv;
  if (!sl_item_keyvals(it, &r->t->key, &kv))
    return SL_OK; /* cannot happen: the copy holds the table's items */
  sl_store_change c = {.t = r->t, .key = &kv, .old = NULL, .item = it};
  sl_err err = sl_store_apply(r->txn, &c, r->req->arena, &r->req->fail);
  if (err != SL_OK)
    return err;
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 64;
    r->items = sl_arena_realloc(r->req->arena, r->items, r->cap * sizeof(*r->items),
                                cap * sizeof(*r->items));
    r->cap = cap;
  }
  r->items[r->n++] = *it;
  return SL_OK;
}

/* The overrides' own rules, before the backup is read. */
static sl_err check_overrides(sl_req *req, const sl_restore_overrides_in *o) {
  bool ppr = sl_str_eq_c(o->billing, "PAY_PER_REQUEST");
  if (ppr && o->pt.present)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: Cannot override ProvisionedThroughput if BillingMode is "
                   "overridden to PAY_PER_REQUEST");
  for (uint32_t i = 0; ppr && i < o->n_gsi; i++)
    if (o->gsi[i].pt.present)
      return sl_fail(req, SL_E_VALIDATION,
                     "Invalid Request: Cannot override ProvisionedThroughput for index %.*s if "
                     "BillingMode is overridden to PAY_PER_REQUEST",
                     SL_STR_FMT(o->gsi[i].name));
  if (sl_str_eq_c(o->billing, "PROVISIONED") && !o->pt.present)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: Must override ProvisionedThroughput if BillingMode is "
                   "overridden to PROVISIONED");
  return SL_OK;
}

/* Does the override's KeySchema name the index's key attributes, in order? */
static bool same_key(const sl_key_schema_in *in, const sl_key_schema *k) {
  if (in->n != sl_key_n_hash(k) + sl_key_n_range(k))
    return false;
  for (uint32_t i = 0; i < in->n; i++) {
    bool hash = i < sl_key_n_hash(k);
    if (!sl_str_eq(in->e[i].attr, sl_key_part(k, i).name) ||
        !sl_str_eq_c(in->e[i].type, hash ? "HASH" : "RANGE"))
      return false;
  }
  return true;
}

static const sl_restore_index_in *find_override(const sl_restore_index_in *e, uint32_t n,
                                                sl_str name) {
  for (uint32_t i = 0; i < n; i++)
    if (sl_str_eq(e[i].name, name))
      return &e[i];
  return NULL;
}

/* Units of an OnDemandThroughput override: >= 1, or -1 for none. */
static sl_err set_max_units(sl_req *req, sl_throughput *tp, const sl_units_in *od) {
  int64_t r = od->has_read ? od->read : tp->max_read_ru;
  int64_t w = od->has_write ? od->write : tp->max_write_ru;
  if ((r < 1 && r != -1) || (w < 1 && w != -1))
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: Requested Max%sRequestUnits for OnDemandThroughput is outside "
                   "of valid range",
                   r < 1 && r != -1 ? "Read" : "Write");
  tp->max_read_ru = r;
  tp->max_write_ru = w;
  return SL_OK;
}

/* Applies the overrides to 't', the backup's definition. */
static sl_err apply_overrides(sl_req *req, const sl_restore_overrides_in *o, sl_table *t) {
  uint8_t mode = t->tp.billing;
  if (o->billing.len)
    mode = sl_str_eq_c(o->billing, "PAY_PER_REQUEST") ? SL_BILLING_PAY_PER_REQUEST
                                                      : SL_BILLING_PROVISIONED;
  if (mode == SL_BILLING_PAY_PER_REQUEST && o->pt.present)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: Cannot override ProvisionedThroughput unless BillingMode is "
                   "PROVISIONED");
  if (mode == SL_BILLING_PROVISIONED && o->od.present)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: Cannot override Max%sRequestUnits for OnDemandThroughput "
                   "unless BillingModeOverride is PAY_PER_REQUEST",
                   o->od.has_read ? "Read" : "Write");
  /* The indexes kept: every override entry must name one of the source's. */
  for (int pass = 0; pass < 2; pass++) {
    bool global = pass == 0;
    const sl_restore_index_in *e = global ? o->gsi : o->lsi;
    uint32_t n = global ? o->n_gsi : o->n_lsi;
    for (uint32_t i = 0; i < n; i++) {
      const sl_index *x = sl_table_index(t, e[i].name);
      if (!x || x->global != global || !same_key(&e[i].key, &x->key))
        return sl_fail(req, SL_E_VALIDATION,
                       "Invalid Request: Index %.*s does not match a secondary index that existed "
                       "in the source table and cannot be created during the restore operation",
                       SL_STR_FMT(e[i].name));
    }
  }
  uint32_t kept = 0;
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    sl_index *x = &t->indexes[i];
    bool listed = x->global ? o->has_gsi : o->has_lsi;
    const sl_restore_index_in *e = x->global ? find_override(o->gsi, o->n_gsi, x->name)
                                             : find_override(o->lsi, o->n_lsi, x->name);
    if (listed && !e)
      continue; /* not in the override list: not restored */
    t->indexes[kept++] = *x;
  }
  t->n_indexes = kept;
  /* Definitions only a dropped index used go too (CreateTable's rule). */
  uint32_t nd = 0;
  for (uint32_t i = 0; i < t->n_defs; i++) {
    bool used = sl_key_schema_uses(&t->key, t->defs[i].name);
    for (uint32_t j = 0; !used && j < t->n_indexes; j++)
      used = sl_key_schema_uses(&t->indexes[j].key, t->defs[i].name);
    if (used)
      t->defs[nd++] = t->defs[i];
  }
  t->n_defs = nd;
  /* Throughput: the table's, then each GSI's (a GSI has its table's mode). */
  bool switched = mode != t->tp.billing;
  t->tp.billing = mode;
  if (mode == SL_BILLING_PAY_PER_REQUEST) {
    t->tp.rcu = t->tp.wcu = 0;
  } else if (o->pt.present) {
    t->tp.rcu = o->pt.read;
    t->tp.wcu = o->pt.write;
  }
  if (mode == SL_BILLING_PROVISIONED)
    t->tp.max_read_ru = t->tp.max_write_ru = -1;
  sl_err err;
  if (o->od.present && (err = set_max_units(req, &t->tp, &o->od)) != SL_OK)
    return err;
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    sl_index *x = &t->indexes[i];
    if (!x->global)
      continue;
    const sl_restore_index_in *e = find_override(o->gsi, o->n_gsi, x->name);
    x->tp.billing = mode;
    if (mode == SL_BILLING_PAY_PER_REQUEST) {
      x->tp.rcu = x->tp.wcu = 0;
      if (e && e->od.present && (err = set_max_units(req, &x->tp, &e->od)) != SL_OK)
        return err;
      continue;
    }
    x->tp.max_read_ru = x->tp.max_write_ru = -1;
    if (e && e->pt.present) {
      x->tp.rcu = e->pt.read;
      x->tp.wcu = e->pt.write;
    } else if (switched) {
      return sl_fail(req, SL_E_VALIDATION,
                     "Invalid Request: Must specify provisioned throughput for index %.*s",
                     SL_STR_FMT(x->name));
    }
  }
  return SL_OK;
}

sl_err sl_restore_table_from_backup(sl_req *req, sl_str target, sl_str arn,
                                    const sl_restore_overrides_in *o) {
  sl_err err;
  if ((err = check_overrides(req, o)) != SL_OK)
    return err;
  if ((err = sl_req_check_table_name(req, target, "targetTableName")) != SL_OK)
    return err;
  sl_txn *txn = NULL;
  sl_table *t = NULL;
  if ((err = sl_store_begin(req->env->store, true, &req->fail, &txn)) != SL_OK)
    return err;
  sl_backup b;
  if ((err = get_backup(req, txn, arn, &b)) != SL_OK)
    goto out;
  if (sl_catalog_get(req->env->catalog, target)) {
    err = sl_fail(req, SL_E_TABLE_ALREADY_EXISTS, "Table already exists: %.*s", SL_STR_FMT(target));
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
  if ((err = decode_def(req, &b, &t)) != SL_OK || (err = apply_overrides(req, o, t)) != SL_OK)
    goto out;
  /* A new table with the backup's definition: what the service does not
   * restore is reset (backups.h). */
  t->restore_backup_arn = sl_table_str(t, b.arn);
  t->restore_source_arn = t->arn;
  t->restore_ms = (uint64_t)req->now_ms;
  t->name = sl_table_str(t, target);
  t->arn = sl_table_str(t, sl_req_table_arn(req, target));
  t->version = 1;
  t->n_tags = 0;
  t->deletion_protection = false;
  t->stream_enabled = false;
  t->stream_view_type = t->stream_label = SL_STR_NULL;
  t->ttl_attr = SL_STR_NULL;
  t->ttl_status = 0;
  t->ttl_changed_ms = 0;
  t->pitr_enabled = false;
  t->pitr_enabled_ms = 0;
  t->pitr_days = 0;
  t->created_ms = (uint64_t)req->now_ms;
  t->status = SL_STATUS_CREATING;
  int64_t delay = sl_env_delay_ms(req->env, SL_DELAY_TABLE_CREATE);
  int64_t index_delay = sl_env_index_with_table_ms(req->env, delay);
  t->status_until_ms = (uint64_t)(req->now_ms + delay);
  /* The units in effect at the backup are restored, not a change pending. */
  t->tp.pending_rcu = t->tp.pending_wcu = 0;
  t->item_count = t->size_bytes = 0;
  t->cap = NULL;
  t->metrics = NULL;
  t->user = NULL;
  t->ttl_sweeping = false;
  t->ttl_cursor_len = 0;
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    sl_index *x = &t->indexes[i];
    x->arn = sl_schema_index_arn(t, x->name);
    x->status = SL_STATUS_CREATING;
    x->status_until_ms = (uint64_t)(req->now_ms + index_delay);
    x->tp.pending_rcu = x->tp.pending_wcu = 0;
    x->backfilling = x->online = false;
    x->backfill_key_len = 0;
    x->item_count = x->size_bytes = 0;
    x->cap = NULL;
    x->metrics = NULL;
  }
  if ((err = sl_tables_identity(req, txn, t)) != SL_OK ||
      (err = sl_catalog_save(txn, t, &req->fail)) != SL_OK)
    goto out;
  restore_ctx rc = {.req = req, .txn = txn, .t = t};
  if ((err = sl_backup_items(txn, &b, req->arena, restore_item, &rc)) != SL_OK)
    goto out;
  err = sl_store_commit(txn, &req->fail);
  txn = NULL;
  if (err != SL_OK)
    goto out;
  for (size_t i = 0; i < rc.n; i++)
    sl_store_item_account(t, NULL, &rc.items[i], req->arena);
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

/* ---- continuous backups ---- */

sl_err sl_describe_continuous_backups(sl_req *req, sl_str table, sl_table **out) {
  return find_table(req, table, out);
}

sl_err sl_update_continuous_backups(sl_req *req, sl_str table, bool enabled, uint32_t days,
                                    sl_table **out) {
  /* Checked before the table is looked up (ack-api-quirks DDB-TABLE-442). */
  if (!enabled && days)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid Request: Cannot specify RecoveryPeriodInDays when disabling "
                   "point-in-time recovery.");
  sl_table *old;
  sl_err err = find_table(req, table, &old);
  if (err != SL_OK)
    return err;
  sl_table *t = sl_table_clone(old);
  if (enabled && !t->pitr_enabled)
    t->pitr_enabled_ms = (uint64_t)req->now_ms;
  t->pitr_enabled = enabled;
  t->pitr_days = enabled ? (days ? days : t->pitr_days ? t->pitr_days : PITR_DAYS_DEFAULT) : 0;
  if ((err = sl_tables_commit_version(req, old, t)) != SL_OK) {
    sl_table_free(t);
    return err;
  }
  req->table = t;
  *out = t;
  return SL_OK;
}

sl_err sl_restore_table_to_point_in_time(sl_req *req, sl_str source, sl_str target) {
  sl_table *t;
  sl_err err = find_table(req, source, &t);
  if (err != SL_OK)
    return err;
  (void)target;
  return sl_fail(req, SL_E_VALIDATION,
                 "sluice does not restore tables to a point in time: it keeps no history of "
                 "table %.*s (use CreateBackup and RestoreTableFromBackup)",
                 SL_STR_FMT(t->name));
}
