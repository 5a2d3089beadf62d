/* GSI backfill on the clock; see backfill.h. Pinned by
 * tests/conformance/test_gsi_lifecycle.py and test_gsi_capacity.py. */
#include "jobs/backfill.h"
#include "cap/cost.h"
#include "cap/charge.h"
#include "base/log.h"
#include "cap/cap.h"
#include "metrics/metrics.h"
#include "store/items.h"
#include "store/key.h"

typedef struct {
  sl_str key; /* storage key of the table item */
  sl_item item;
} row;

/* The index key of 'it' if the service would index it: right types (the
 * projection checks them), non-empty and within the key size limits. */
static bool indexable(const sl_index *x, const sl_item *it, sl_keyvals *ik) {
  if (!sl_item_keyvals(it, &x->key, ik))
    return false;
  /* Every attribute of a multi-attribute key is held to its own limit, and
   * each tuple's values together to the same limit (ops/req.c's write check). */
  size_t sum[2] = {0, 0};
  for (uint32_t i = 0; i < ik->hashes.n + ik->ranges.n; i++) {
    bool hash = i < ik->hashes.n;
    const sl_av *v = hash ? ik->hashes.v[i] : ik->ranges.v[i - ik->hashes.n];
    if ((v->type == SL_AV_S || v->type == SL_AV_B) && v->s.len == 0)
      return false;
    if (sl_av_size(v) > (hash ? 2048u : 1024u))
      return false;
    sum[!hash] += sl_av_size(v);
  }
  return sum[0] <= 2048 && sum[1] <= 1024;
}

/* Reads the next items after the index's cursor (copied: the transaction
 * writes afterwards). *end: the table has no item after them. */
static size_t read_rows(sl_arena *a, sl_txn *txn, const sl_table *t, const sl_index *x, row *rows,
                        size_t max, bool *end) {
  uint8_t lo[4], hi[4];
  sl_be32(lo, t->id);
  sl_be32(hi, t->id + 1);
  sl_str after = sl_str_make((const char *)x->backfill_key, x->backfill_key_len);
  sl_str start = x->backfill_key_len ? after : sl_str_make((char *)lo, 4);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_ITEMS);
  sl_str k, v;
  size_t n = 0, bytes = 0;
  *end = true;
  for (bool ok = sl_cursor_seek(c, start, &k, &v); ok; ok = sl_cursor_next(c, &k, &v)) {
    if (sl_str_cmp(k, sl_str_make((char *)hi, 4)) >= 0)
      break;
    if (x->backfill_key_len && sl_str_eq(k, after))
      continue;
    if (n == max || bytes >= SL_BACKFILL_STEP_BYTES) {
      *end = false;
      break;
    }
    /* A copy of the bytes: the transaction writes afterwards. */
    sl_str bytes_copy = sl_arena_strdup(a, v);
    if (!sl_item_decode(a, bytes_copy.p, bytes_copy.len, &rows[n].item, NULL))
      SL_ASSERT(!"corrupt item in storage");
    rows[n].key = sl_arena_strdup(a, k);
    bytes += v.len;
    n++;
  }
  sl_cursor_close(c);
  return n;
}

typedef struct {
  int64_t budget_mu; /* backfill_rate budget of this step; < 0: admission by the engine */
  int64_t consumed_mu;
  bool throttled;
  uint64_t entries, bytes; /* written */
} step_cost;

/* Pays for one entry of 'cost_mu'; false when the index has no capacity now. */
static bool pay(sl_env *env, sl_index *x, const sl_keyvals *ik, sl_arena *a, int64_t cost_mu,
                step_cost *sc) {
  sl_cap_charge ch = sl_cap_charge_index(a, x->cap, SL_CAP_WRITE, ik, cost_mu);
  if (!x->cap) {
    sc->consumed_mu += cost_mu;
    return true;
  }
  if (sc->budget_mu >= 0) {
    if (sc->budget_mu == 0)
      return false;
    sc->budget_mu = sc->budget_mu > cost_mu ? sc->budget_mu - cost_mu : 0;
    sl_cap_debit(env->cap, &ch, 1);
  } else {
    sl_cap_verdict v;
    if (!sl_cap_admit(env->cap, &ch, 1, &v)) {
      sc->throttled = true;
      return false;
    }
  }
  sc->consumed_mu += cost_mu;
  return true;
}

/* Writes the entries of rows[0..n) it can pay for; returns how many rows were
 * dealt with (in order). */
static size_t copy_rows(sl_env *env, sl_txn *txn, const sl_table *t, sl_index *x, sl_arena *a,
                        const row *rows, size_t n, step_cost *sc, sl_failure *f, sl_err *err) {
  size_t done = 0;
  for (; done < n; done++) {
    const sl_item *it = &rows[done].item;
    sl_item e;
    sl_keyvals ik, tk;
    if (!indexable(x, it, &ik) || !sl_index_project(a, t, x, it, &e))
      continue;
    bool ok = sl_item_keyvals(it, &t->key, &tk);
    SL_ASSERT(ok);
    sl_buf key, val;
    sl_buf_init(&key, a);
    sl_key_index_entry_tuple(&key, x->id, &ik.hashes, &ik.ranges, tk.hash, tk.range);
    sl_str existing;
    /* A write since the backfill started made it already. */
    if (sl_store_get(txn, SL_DB_ITEMS, sl_buf_str(&key), &existing))
      continue;
    size_t size = sl_item_size(&e);
    if (!pay(env, x, &ik, a, sl_cost_write_units_mu(size, false), sc))
      break;
    sl_buf_init(&val, a);
    sl_item_encode(&val, &e);
    if ((*err = sl_store_put(txn, SL_DB_ITEMS, sl_buf_str(&key), sl_buf_str(&val), f)) != SL_OK)
      break;
    sc->entries++;
    sc->bytes += size;
    if (x->cap) {
      sl_cap_charge at = sl_cap_charge_index(a, x->cap, SL_CAP_WRITE, &ik, 0);
      sl_cap_note_bytes(env->cap, x->cap, at.hash, at.sort, (int64_t)size);
    }
  }
  return done;
}

/* Rows a step may read: SL_BACKFILL_ITEMS_PER_MS per millisecond of clock since
 * the last step (a full step the first time), 0 when the clock has not moved. */
static size_t step_rows(const sl_index *x, int64_t now_ms) {
  if (!x->backfill_step_ms)
    return SL_BACKFILL_STEP_ITEMS;
  int64_t since = now_ms - (int64_t)x->backfill_step_ms;
  if (since <= 0)
    return 0;
  if (since >= SL_BACKFILL_STEP_ITEMS / SL_BACKFILL_ITEMS_PER_MS)
    return SL_BACKFILL_STEP_ITEMS;
  return (size_t)(since * SL_BACKFILL_ITEMS_PER_MS);
}

/* One step of the backfill of 'x'; true when it completed. */
static bool step(sl_env *env, sl_table *t, sl_index *x, int64_t now_ms) {
  size_t max = step_rows(x, now_ms);
  if (max == 0)
    return false;
  const sl_cap_params *p = sl_cap_params_of(env->cap);
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sl_txn *txn = NULL;
  bool completed = false;
  step_cost sc = {.budget_mu = -1};
  if (p->backfill_rate > 0) {
    /* The rate over the clock time since the last step (one second for the
     * first); what a step's item limits leave unused is not carried over. */
    int64_t since = x->backfill_step_ms ? now_ms - (int64_t)x->backfill_step_ms : 1000;
    sc.budget_mu = p->backfill_rate * since;
  }
  x->backfill_step_ms = (uint64_t)now_ms;
  sl_err err = sl_store_begin(env->store, true, &f, &txn);
  if (err != SL_OK)
    goto out;
  bool end;
  row *rows = SL_NEW_ARRAY(&a, row, SL_BACKFILL_STEP_ITEMS);
  size_t n = read_rows(&a, txn, t, x, rows, max, &end);
  size_t done = copy_rows(env, txn, t, x, &a, rows, n, &sc, &f, &err);
  if (err != SL_OK || (done == 0 && n > 0))
    goto out; /* nothing to save: throttled at the first entry, or a storage error */
  end = end && done == n;
  /* Every item is copied but the backfill lasts at least until
   * backfill_until_ms (--delays realistic): nothing to save until then. */
  if (end && now_ms < (int64_t)x->backfill_until_ms) {
    if (done == 0)
      goto out;
    end = false;
  }
  /* Stage the new cursor on the installed table; undone if the commit fails. */
  sl_index saved = *x;
  if (done) {
    memcpy(x->backfill_key, rows[done - 1].key.p, rows[done - 1].key.len);
    x->backfill_key_len = (uint16_t)rows[done - 1].key.len;
    x->backfill_scanned += done;
  }
  x->backfilling = true;
  if (end) {
    x->status = SL_STATUS_ACTIVE;
    x->backfilling = false;
    x->online = false;
    x->status_until_ms = 0;
    sl_store_resource_count(txn, x->id, &x->item_count, &x->size_bytes);
  }
  if ((err = sl_catalog_save(txn, t, &f)) != SL_OK) {
    *x = saved;
    goto out;
  }
  err = sl_store_commit(txn, &f);
  txn = NULL;
  if (err != SL_OK) {
    *x = saved;
    goto out;
  }
  /* Progress for DescribeTable; approximate until the final recount. */
  if (!end) {
    x->item_count += sc.entries;
    x->size_bytes += sc.bytes;
  }
  completed = end;
out:
  if (txn)
    sl_store_abort(txn);
  if (err != SL_OK)
    sl_warn("backfill of %.*s.%.*s: %.*s", SL_STR_FMT(t->name), SL_STR_FMT(x->name),
            SL_STR_FMT(f.message));
  if (env->metrics) {
    uint64_t total = t->item_count > x->backfill_scanned ? t->item_count : x->backfill_scanned;
    double percent =
        completed || total == 0 ? 100.0 : 100.0 * (double)x->backfill_scanned / (double)total;
    sl_metrics_backfill(env->metrics, t->name, x->name, sc.consumed_mu, sc.throttled ? 1 : 0,
                        percent);
  }
  sl_arena_destroy(&a);
  return completed;
}

bool sl_backfill_tick(sl_env *env, int64_t now_ms) {
  bool any = false;
  for (size_t i = 0; i < sl_catalog_count(env->catalog); i++) {
    sl_table *t = sl_catalog_at(env->catalog, i);
    for (uint32_t j = 0; j < t->n_indexes; j++) {
      sl_index *x = &t->indexes[j];
      if (!x->online || x->status != SL_STATUS_CREATING || (int64_t)x->alloc_until_ms > now_ms)
        continue;
      x->backfilling = true; /* the resource-allocation phase is over */
      any |= step(env, t, x, now_ms);
    }
  }
  return any;
}
