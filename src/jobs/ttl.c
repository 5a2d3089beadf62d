/* The Time to Live expiry sweep; see ttl.h. Pinned by
 * tests/conformance/test_ttl.py. */
#include "jobs/ttl.h"
#include "cap/charge.h"
#include "base/log.h"
#include "base/num.h"
#include "cap/cap.h"
#include "metrics/metrics.h"
#include "store/items.h"
#include "store/key.h"

/* The service does not expire items whose time is more than five years in
 * the past (developer guide, TTL; Alternator's test_ttl_expiration). */
#define FIVE_YEARS_S (5LL * 365 * 86400)

bool sl_ttl_expired(const sl_table *t, const sl_item *it, int64_t now_ms) {
  if (t->ttl_status != SL_TTL_ENABLED || t->ttl_attr.len == 0)
    return false;
  const sl_av *v = sl_item_get(it, t->ttl_attr);
  sl_num when, now, oldest;
  if (!v || v->type != SL_AV_N || sl_num_parse(v->s, &when) != SL_NUM_OK)
    return false;
  int64_t now_s = now_ms / 1000;
  sl_num_from_i64(now_s, &now);
  sl_num_from_i64(now_s - FIVE_YEARS_S, &oldest);
  return sl_num_cmp(&when, &now) <= 0 && sl_num_cmp(&when, &oldest) >= 0;
}

typedef struct {
  sl_item *items; /* expired items, copied */
  size_t n;
  size_t scanned;
  bool end; /* the pass reached the table's last item */
  uint8_t last[SL_CURSOR_KEY_MAX];
  uint16_t last_len;
} sweep_batch;

/* Reads up to 'budget' items after the table's sweep cursor. */
static sl_err read_batch(sl_env *env, const sl_table *t, int64_t now_ms, size_t budget, sl_arena *a,
                         sl_failure *f, sweep_batch *out) {
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, false, f, &txn);
  if (err != SL_OK)
    return err;
  uint8_t lo[4], hi[4];
  sl_be32(lo, t->id);
  sl_be32(hi, t->id + 1);
  sl_str after = sl_str_make((const char *)t->ttl_cursor, t->ttl_cursor_len);
  sl_str start = t->ttl_cursor_len ? after : sl_str_make((char *)lo, 4);
  out->items = SL_NEW_ARRAY(a, sl_item, budget);
  out->end = true;
  sl_cursor *c = sl_store_cursor(txn, SL_DB_ITEMS);
  sl_str k, v;
  for (bool ok = sl_cursor_seek(c, start, &k, &v); ok; ok = sl_cursor_next(c, &k, &v)) {
    if (sl_str_cmp(k, sl_str_make((char *)hi, 4)) >= 0)
      break;
    if (t->ttl_cursor_len && sl_str_eq(k, after))
      continue;
    if (out->scanned == budget) {
      out->end = false;
      break;
    }
    sl_item it;
    if (!sl_item_decode(a, v.p, v.len, &it, NULL))
      SL_ASSERT(!"corrupt item in storage");
    if (sl_ttl_expired(t, &it, now_ms))
      out->items[out->n++] = sl_item_copy(a, &it);
    memcpy(out->last, k.p, k.len);
    out->last_len = (uint16_t)k.len;
    out->scanned++;
  }
  sl_cursor_close(c);
  sl_store_abort(txn);
  return SL_OK;
}

/* Deletes the batch's expired items in one transaction. */
static sl_err delete_batch(sl_env *env, const sl_table *t, const sweep_batch *b, sl_arena *a,
                           sl_failure *f) {
  sl_txn *txn;
  sl_err err = sl_store_begin(env->store, true, f, &txn);
  if (err != SL_OK)
    return err;
  for (size_t i = 0; err == SL_OK && i < b->n; i++) {
    sl_keyvals kv;
    bool ok = sl_item_keyvals(&b->items[i], &t->key, &kv);
    SL_ASSERT(ok);
    sl_store_change c = {.t = t, .key = &kv, .old = &b->items[i], .item = NULL, .by_service = true};
    err = sl_store_apply(txn, &c, a, f);
  }
  if (err != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  return sl_store_commit(txn, f);
}

/* After the commit: counters, stored bytes, metrics. */
static void account(sl_env *env, sl_table *t, const sweep_batch *b, sl_arena *a) {
  for (size_t i = 0; i < b->n; i++) {
    const sl_item *it = &b->items[i];
    sl_store_item_account(t, it, NULL, a);
    if (!t->cap)
      continue;
    sl_keyvals kv;
    sl_item_keyvals(it, &t->key, &kv);
    sl_cap_charge at = sl_cap_charge_key(a, t->cap, SL_CAP_WRITE, kv.hash, kv.range, false, 0);
    sl_cap_note_bytes(env->cap, t->cap, at.hash, at.sort, -(int64_t)sl_item_size(it));
  }
  if (env->metrics && b->n)
    sl_metrics_ttl_deleted(env->metrics, t->name, (int64_t)b->n);
}

/* One step of the sweep of 't'; returns the items deleted. */
static uint64_t sweep(sl_env *env, sl_table *t, int64_t now_ms, size_t *budget) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sweep_batch b;
  memset(&b, 0, sizeof(b));
  uint64_t deleted = 0;
  sl_err err = read_batch(env, t, now_ms, *budget, &a, &f, &b);
  if (err == SL_OK && b.n)
    err = delete_batch(env, t, &b, &a, &f);
  if (err != SL_OK) {
    sl_warn("TTL sweep of %.*s: %.*s", SL_STR_FMT(t->name), SL_STR_FMT(f.message));
    goto out;
  }
  account(env, t, &b, &a);
  deleted = b.n;
  *budget -= b.scanned < *budget ? b.scanned : *budget;
  memcpy(t->ttl_cursor, b.last, b.last_len);
  t->ttl_cursor_len = b.last_len;
  if (b.end)
    t->ttl_sweeping = false;
out:
  sl_arena_destroy(&a);
  return deleted;
}

/* Items a step may read (see ttl.h), 0 when the clock has not moved. */
static size_t step_items(const sl_table *t, int64_t now_ms) {
  if (!t->ttl_step_ms)
    return SL_TTL_STEP_ITEMS;
  int64_t since = now_ms - (int64_t)t->ttl_step_ms;
  if (since <= 0)
    return 0;
  if (since >= SL_TTL_STEP_ITEMS / SL_TTL_ITEMS_PER_MS)
    return SL_TTL_STEP_ITEMS;
  return (size_t)(since * SL_TTL_ITEMS_PER_MS);
}

uint64_t sl_ttl_tick(sl_env *env, int64_t now_ms) {
  int64_t delay = sl_cap_params_of(env->cap)->ttl_delete_delay_ms;
  uint64_t deleted = 0;
  for (size_t i = 0; i < sl_catalog_count(env->catalog); i++) {
    sl_table *t = sl_catalog_at(env->catalog, i);
    if (t->ttl_status != SL_TTL_ENABLED) {
      t->ttl_sweeping = false;
      continue;
    }
    if (t->status != SL_STATUS_ACTIVE && t->status != SL_STATUS_UPDATING)
      continue;
    if (!t->ttl_sweeping) {
      if (t->ttl_pass_ms && now_ms - (int64_t)t->ttl_pass_ms < delay)
        continue;
      t->ttl_sweeping = true;
      t->ttl_pass_ms = (uint64_t)now_ms;
      t->ttl_cursor_len = 0;
      t->ttl_step_ms = 0; /* a new pass starts with a full step */
    }
    size_t budget = step_items(t, now_ms);
    if (budget == 0)
      continue;
    t->ttl_step_ms = (uint64_t)now_ms;
    deleted += sweep(env, t, now_ms, &budget);
  }
  return deleted;
}
