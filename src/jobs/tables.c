/* Table and index lifecycle on the clock, and their capacity resources; see
 * tables.h. */
#include "jobs/tables.h"
#include "base/log.h"
#include "cap/cap.h"
#include "store/key.h"
#include "streams/streams.h"

#include <stdio.h>
#include <time.h>

/* A new layout's epoch (cap.h): never one an earlier run of the same
 * directory gave, even under --seed (whose random numbers repeat), so the
 * real time's nanoseconds go into it; never 0. */
static uint64_t new_epoch(sl_env *env) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (sl_env_random(env) ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)ts.tv_nsec) | 1;
}

void sl_tables_attach_capacity(sl_env *env, sl_table *t) {
  bool has_lsi = false;
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (!t->indexes[i].global)
      has_lsi = true;
  if (!t->cap) {
    sl_cap_res_init init = {.is_index = false,
                            .name = t->name,
                            .arn = t->arn,
                            .tp = &t->tp,
                            .has_lsi = has_lsi,
                            .stored_bytes = t->size_bytes,
                            .epoch = new_epoch(env)};
    t->cap = sl_cap_res_new(env->cap, &init);
  }
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    sl_index *x = &t->indexes[i];
    if (!x->global || x->cap)
      continue;
    sl_cap_res_init init = {.is_index = true,
                            .name = x->name,
                            .table = t->name,
                            .arn = x->arn,
                            .tp = &x->tp,
                            .stored_bytes = x->size_bytes,
                            .epoch = new_epoch(env)};
    x->cap = sl_cap_res_new(env->cap, &init);
  }
}

void sl_tables_detach_capacity(sl_env *env, sl_table *t) {
  if (t->cap) {
    sl_cap_res_free(env->cap, t->cap);
    t->cap = NULL;
  }
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    if (t->indexes[i].cap) {
      sl_cap_res_free(env->cap, t->indexes[i].cap);
      t->indexes[i].cap = NULL;
    }
  }
}

/* ---- partition layouts (tables.h) ---- */

#define LAYOUT_HDR 20

static void layout_key(uint8_t out[6], uint32_t id) {
  out[0] = 'p';
  out[1] = 'l';
  sl_be32(out + 2, id);
}

static void put32(sl_buf *b, uint32_t v) {
  uint8_t p[4];
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
  sl_buf_append(b, p, 4);
}

static void put64(sl_buf *b, uint64_t v) {
  put32(b, (uint32_t)v);
  put32(b, (uint32_t)(v >> 32));
}

static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static sl_err layout_save(sl_txn *txn, sl_arena *a, uint32_t id, sl_cap_res *r, sl_failure *f) {
  size_t n = sl_cap_res_partitions(r);
  sl_cap_part_start *v = SL_NEW_ARRAY(a, sl_cap_part_start, n);
  uint32_t next_id;
  n = sl_cap_res_layout(r, v, n, &next_id);
  sl_buf b;
  sl_buf_init(&b, a);
  put32(&b, 1); /* format 1, three bytes 0 */
  put32(&b, next_id);
  put64(&b, sl_cap_res_epoch(r));
  put32(&b, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    put64(&b, v[i].hash);
    put32(&b, v[i].id);
    put32(&b, v[i].parent);
    sl_buf_putc(&b, (char)v[i].sort_len);
    sl_buf_append(&b, v[i].sort, v[i].sort_len);
  }
  uint8_t k[6];
  layout_key(k, id);
  sl_err err = sl_store_put(txn, SL_DB_META, sl_str_make((char *)k, 6), sl_buf_str(&b), f);
  if (err == SL_OK)
    sl_cap_res_layout_saved(r);
  return err;
}

/* Restores the saved layout of resource 'id' into 'r'; false when there is
 * none or it does not decode. */
static bool layout_load(sl_txn *txn, sl_arena *a, sl_cap *c, uint32_t id, sl_cap_res *r) {
  uint8_t k[6];
  layout_key(k, id);
  sl_str v;
  if (!sl_store_get(txn, SL_DB_META, sl_str_make((char *)k, 6), &v) || v.len < LAYOUT_HDR)
    return false;
  const uint8_t *p = (const uint8_t *)v.p, *end = p + v.len;
  if (p[0] != 1)
    return false;
  uint32_t next_id = get32(p + 4), n = get32(p + 16);
  uint64_t epoch = get64(p + 8);
  if (n == 0 || n > (v.len - LAYOUT_HDR) / 17)
    return false;
  sl_cap_part_start *s = SL_NEW_ARRAY(a, sl_cap_part_start, n);
  p += LAYOUT_HDR;
  for (uint32_t i = 0; i < n; i++) {
    if (end - p < 17)
      return false;
    memset(&s[i], 0, sizeof(s[i]));
    s[i].hash = get64(p);
    s[i].id = get32(p + 8);
    s[i].parent = get32(p + 12);
    s[i].sort_len = p[16];
    p += 17;
    if (s[i].sort_len > sizeof(s[i].sort) || (size_t)(end - p) < s[i].sort_len)
      return false;
    memcpy(s[i].sort, p, s[i].sort_len);
    p += s[i].sort_len;
  }
  return p == end && sl_cap_res_layout_restore(c, r, s, n, next_id, epoch);
}

sl_err sl_tables_load_layouts(sl_env *env, sl_failure *f) {
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, false, f, &txn);
  if (err != SL_OK)
    return err;
  sl_arena a;
  sl_arena_init(&a);
  for (size_t i = 0; i < sl_catalog_count(env->catalog); i++) {
    sl_table *t = sl_catalog_at(env->catalog, i);
    if (t->cap && !layout_load(txn, &a, env->cap, t->id, t->cap))
      sl_info("table %.*s: no saved partition layout; its partitions start evenly spread",
              SL_STR_FMT(t->name));
    for (uint32_t j = 0; j < t->n_indexes; j++)
      if (t->indexes[j].cap)
        layout_load(txn, &a, env->cap, t->indexes[j].id, t->indexes[j].cap);
  }
  sl_store_abort(txn);
  sl_arena_destroy(&a);
  return SL_OK;
}

sl_err sl_tables_save_layouts(sl_env *env, sl_failure *f) {
  if (!sl_cap_layouts_dirty(env->cap))
    return SL_OK;
  if (!sl_store_durable(env->store)) {
    sl_cap_layouts_saved(env->cap); /* nothing outlives this run */
    return SL_OK;
  }
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, true, f, &txn);
  if (err != SL_OK)
    return err;
  sl_arena a;
  sl_arena_init(&a);
  for (size_t i = 0; i < sl_catalog_count(env->catalog) && err == SL_OK; i++) {
    sl_table *t = sl_catalog_at(env->catalog, i);
    if (t->cap && sl_cap_res_layout_dirty(t->cap))
      err = layout_save(txn, &a, t->id, t->cap, f);
    for (uint32_t j = 0; j < t->n_indexes && err == SL_OK; j++) {
      sl_index *x = &t->indexes[j];
      if (x->cap && sl_cap_res_layout_dirty(x->cap))
        err = layout_save(txn, &a, x->id, x->cap, f);
    }
  }
  sl_arena_destroy(&a);
  if (err != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  if ((err = sl_store_commit(txn, f)) == SL_OK)
    sl_cap_layouts_saved(env->cap);
  return err;
}

static sl_err layout_del(sl_txn *txn, uint32_t id, sl_failure *f) {
  uint8_t k[6];
  layout_key(k, id);
  return sl_store_del(txn, SL_DB_META, sl_str_make((char *)k, 6), f);
}

static void id_range(uint32_t id, uint8_t lo[4], uint8_t hi[4]) {
  lo[0] = (uint8_t)(id >> 24);
  lo[1] = (uint8_t)(id >> 16);
  lo[2] = (uint8_t)(id >> 8);
  lo[3] = (uint8_t)id;
  uint32_t next = id + 1;
  hi[0] = (uint8_t)(next >> 24);
  hi[1] = (uint8_t)(next >> 16);
  hi[2] = (uint8_t)(next >> 8);
  hi[3] = (uint8_t)next;
}

sl_err sl_tables_drop(sl_env *env, sl_table *t, sl_failure *f) {
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, true, f, &txn);
  if (err != SL_OK)
    return err;
  /* The stream first: disabling it reads the items (streams.h, "After
   * images"). */
  err = sl_streams_sync(env->streams, txn, t, NULL, sl_clock_now_ms(env->clock), f);
  uint8_t lo[4], hi[4];
  id_range(t->id, lo, hi);
  if (err == SL_OK)
    err = sl_store_del_range(txn, SL_DB_ITEMS, sl_str_make((char *)lo, 4),
                             sl_str_make((char *)hi, 4), NULL, f);
  for (uint32_t i = 0; err == SL_OK && i < t->n_indexes; i++) {
    id_range(t->indexes[i].id, lo, hi);
    err = sl_store_del_range(txn, SL_DB_ITEMS, sl_str_make((char *)lo, 4),
                             sl_str_make((char *)hi, 4), NULL, f);
  }
  if (err == SL_OK)
    err = layout_del(txn, t->id, f);
  for (uint32_t i = 0; err == SL_OK && i < t->n_indexes; i++)
    err = layout_del(txn, t->indexes[i].id, f);
  if (err == SL_OK)
    err = sl_catalog_erase(txn, t->name, f);
  if (err != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  return sl_store_commit(txn, f);
}

/* A provisioned-throughput change takes effect as its UPDATING ends, dated
 * then (not when a late tick notices), so that a restart, which reloads the
 * record saved with the change pending, applies it the same way: the
 * capacity engine serves the old units until this moment
 * (tests/conformance/test_update_table.py, "while UPDATING"). */
static void apply_pending(sl_env *env, sl_throughput *tp, struct sl_cap_res *cap, int64_t at_ms) {
  if (sl_cap_pending_apply(sl_cap_params_of(env->cap), tp, at_ms) && cap)
    sl_cap_res_configure(env->cap, cap, tp);
}

bool sl_tables_advance(sl_env *env, int64_t now_ms) {
  bool changed = false;
  size_t n = sl_catalog_count(env->catalog);
  for (size_t i = 0; i < n; i++) {
    sl_table *t = sl_catalog_at(env->catalog, i);
    if ((t->status == SL_STATUS_CREATING || t->status == SL_STATUS_UPDATING) &&
        (int64_t)t->status_until_ms <= now_ms) {
      t->status = SL_STATUS_ACTIVE;
      t->update_cause = 0;
      apply_pending(env, &t->tp, t->cap, (int64_t)t->status_until_ms);
      changed = true;
    }
    for (uint32_t j = 0; j < t->n_indexes; j++) {
      sl_index *x = &t->indexes[j];
      if ((x->status == SL_STATUS_CREATING || x->status == SL_STATUS_UPDATING) &&
          (int64_t)x->status_until_ms <= now_ms) {
        x->status = SL_STATUS_ACTIVE;
        x->backfilling = false;
        apply_pending(env, &x->tp, x->cap, (int64_t)x->status_until_ms);
        changed = true;
      }
    }
    if (t->tp.warm_status == SL_STATUS_UPDATING && (int64_t)t->tp.warm_ready_ms <= now_ms) {
      /* Warm throughput becomes ACTIVE: partitions pre-split and the
       * previous peak raised (capacity-model.md §6). */
      t->tp.warm_status = SL_STATUS_ACTIVE;
      if (t->cap)
        sl_cap_res_configure(env->cap, t->cap, &t->tp);
      changed = true;
    }
    for (uint32_t j = 0; j < t->n_indexes; j++) {
      sl_index *x = &t->indexes[j];
      if (x->tp.warm_status == SL_STATUS_UPDATING && (int64_t)x->tp.warm_ready_ms <= now_ms) {
        x->tp.warm_status = SL_STATUS_ACTIVE;
        if (x->cap)
          sl_cap_res_configure(env->cap, x->cap, &x->tp);
        changed = true;
      }
    }
  }
  return changed;
}

/* ---- the end of a deletion ---- */

static bool key_uses(const sl_key_schema *k, sl_str name) { return sl_key_schema_uses(k, name); }

/* Drops the definitions no key uses any more (the service prunes them when a
 * deleted index goes, DDB-TABLE-151). */
static void prune_defs(sl_table *t) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->n_defs; i++) {
    bool used = key_uses(&t->key, t->defs[i].name);
    for (uint32_t j = 0; !used && j < t->n_indexes; j++)
      used = key_uses(&t->indexes[j].key, t->defs[i].name);
    if (used)
      t->defs[n++] = t->defs[i];
  }
  t->n_defs = n;
}

/* Removes index j of the installed table 't': entries and record in one
 * transaction, then the new version replaces 't'. */
static sl_err remove_index(sl_env *env, sl_table *t, uint32_t j, sl_failure *f) {
  sl_table *nt = sl_table_clone(t);
  const sl_index *x = &nt->indexes[j];
  struct sl_cap_res *cap = x->cap;
  uint8_t lo[4], hi[4];
  sl_be32(lo, x->id);
  sl_be32(hi, x->id + 1);
  memmove(&nt->indexes[j], &nt->indexes[j + 1], (nt->n_indexes - j - 1) * sizeof(sl_index));
  nt->n_indexes--;
  prune_defs(nt);
  nt->version = t->version + 1;
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, true, f, &txn);
  if (err != SL_OK)
    goto out;
  err = sl_store_del_range(txn, SL_DB_ITEMS, sl_str_make((char *)lo, 4), sl_str_make((char *)hi, 4),
                           NULL, f);
  if (err == SL_OK)
    err = layout_del(txn, x->id, f);
  if (err == SL_OK)
    err = sl_catalog_save(txn, nt, f);
  if (err != SL_OK) {
    sl_store_abort(txn);
    goto out;
  }
  if ((err = sl_store_commit(txn, f)) != SL_OK)
    goto out;
  sl_catalog_install(env->catalog, nt); /* frees 't' */
  nt = NULL;
  /* Released at the Delete already, unless the server restarted since. */
  if (cap)
    sl_cap_res_free(env->cap, cap);
out:
  sl_table_free(nt);
  return err;
}

bool sl_indexes_advance(sl_env *env, int64_t now_ms) {
  bool changed = false;
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  for (size_t i = 0; i < sl_catalog_count(env->catalog); i++) {
    sl_table *t = sl_catalog_at(env->catalog, i);
    for (uint32_t j = 0; j < t->n_indexes; j++) {
      const sl_index *x = &t->indexes[j];
      if (x->status != SL_STATUS_DELETING || (int64_t)x->status_until_ms > now_ms)
        continue;
      if (remove_index(env, t, j, &f) != SL_OK) {
        sl_warn("table %.*s: cannot remove index %.*s yet: %.*s", SL_STR_FMT(t->name),
                SL_STR_FMT(x->name), SL_STR_FMT(f.message));
        break;
      }
      changed = true;
      t = sl_catalog_at(env->catalog, i);
      j = (uint32_t)-1; /* rescan the new version */
    }
  }
  sl_arena_destroy(&a);
  return changed;
}
