/* One page of a Query or Scan; see pages.h. */
#include "ops/pages.h"
#include "cap/cost.h"
#include "cap/charge.h"
#include "base/log.h"
#include "cap/cap.h"
#include "store/key.h"

#include <stdlib.h>

static const sl_key_schema *schema_of(const sl_table *t, const sl_index *x) {
  return x ? &x->key : &t->key;
}

/* The capacity charge of reading 'it' (placement only; cost set by caller). */
static void charge_for(sl_req *req, const sl_table *t, const sl_index *x, const sl_item *it,
                       sl_cap_charge *c) {
  sl_keyvals kv;
  sl_cap_res *res = x && x->global ? x->cap : t->cap;
  bool ok = sl_item_keyvals(it, schema_of(t, x), &kv);
  if (x)
    *c = sl_cap_charge_index(req->arena, res, SL_CAP_READ, ok ? &kv : NULL, 0);
  else
    *c = sl_cap_charge_key(req->arena, res, SL_CAP_READ, ok ? kv.hash : NULL, ok ? kv.range : NULL,
                           false, 0);
}

void sl_page_copy_key_attrs(sl_item *dst, const sl_item *src, const sl_key_schema *k) {
  uint32_t n = sl_key_n_hash(k) + sl_key_n_range(k);
  for (uint32_t i = 0; i < n; i++) {
    sl_str name = sl_key_part(k, i).name;
    const sl_av *v = sl_item_get(src, name);
    if (v)
      dst->attrs[dst->n++] = (sl_attr){name, *v};
  }
}

sl_err sl_page_start_key(sl_req *req, const sl_table *t, const sl_index *x, const sl_item *esk,
                         sl_buf *out) {
  const sl_item it = *esk;
  sl_keyvals tk, ik;
  uint32_t want = sl_key_has_range(&t->key) ? 2 : 1;
  bool ok = sl_item_keyvals(&it, &t->key, &tk);
  if (x) {
    ok = ok && sl_item_keyvals(&it, &x->key, &ik);
    /* Index keys may share names with table keys. */
    sl_item both = {SL_NEW_ARRAY(req->arena, sl_attr, 2 + 2 * SL_KEY_MAX_PARTS), 0};
    sl_page_copy_key_attrs(&both, &it, &t->key);
    sl_page_copy_key_attrs(&both, &it, &x->key);
    sl_item_canonicalize(&both);
    want = both.n;
  }
  /* Query and Scan alike: Scan's older text went on ": The provided key
   * element does not match the schema", which its newer wording drops (a
   * public conformance suite's Scan and Query message tests, September
   * 2026; tests/conformance/test_scan.py). */
  if (!ok || it.n != want)
    return sl_fail(req, SL_E_VALIDATION, "The provided starting key is invalid");
  if (x)
    sl_key_index_entry_tuple(out, x->id, &ik.hashes, &ik.ranges, tk.hash, tk.range);
  else
    sl_key_item(out, t->id, tk.hash, tk.range);
  return SL_OK;
}

/* Positions the cursor on the first entry of the page. */
static bool first_entry(sl_cursor *c, const sl_page_opts *o, sl_str *k, sl_str *v) {
  bool ok;
  if (o->forward) {
    if (o->exclusive_start.len) {
      ok = sl_cursor_seek(c, o->exclusive_start, k, v);
      if (ok && sl_str_eq(*k, o->exclusive_start))
        ok = sl_cursor_next(c, k, v);
    } else {
      ok = sl_cursor_seek(c, o->lo, k, v);
    }
    return ok && sl_str_cmp(*k, o->hi) < 0 && sl_str_cmp(*k, o->lo) >= 0;
  }
  if (o->exclusive_start.len)
    ok = sl_cursor_seek_last_before(c, o->exclusive_start, k, v);
  else
    ok = sl_cursor_seek_last_before(c, o->hi, k, v);
  return ok && sl_str_cmp(*k, o->lo) >= 0 && sl_str_cmp(*k, o->hi) < 0;
}

static bool next_entry(sl_cursor *c, const sl_page_opts *o, sl_str *k, sl_str *v) {
  if (o->forward)
    return sl_cursor_next(c, k, v) && sl_str_cmp(*k, o->hi) < 0;
  return sl_cursor_prev(c, k, v) && sl_str_cmp(*k, o->lo) >= 0;
}

/* ---- runs of cut sort keys (pages.h) ---- */

typedef struct {
  sl_str key, val;
  sl_item it; /* decoded, for the comparison */
} run_entry;

/* Where the page's entries come from: the cursor, in key order, except that
 * a run is read whole and handed out in the sort key's true order. */
typedef struct {
  sl_req *req;
  const sl_page_opts *o;
  sl_cursor *c;
  run_entry *run;
  size_t n_run, i_run;
  bool pending; /* the cursor's entry after a run, not handed out yet */
  sl_str pk, pv;
} entries;

static bool in_run(const sl_page_opts *o, sl_str k) { return o->run_at && k.len > o->run_at; }

static bool same_run(const sl_page_opts *o, sl_str a, sl_str b) {
  return in_run(o, a) && in_run(o, b) && memcmp(a.p, b.p, o->run_at) == 0;
}

/* True sort-key order of two entries (items and storage keys), ascending:
 * the sort-key attributes in KeySchema order, then the storage key (the
 * table's key breaks ties, as in key order). */
static int run_cmp(const sl_page_opts *o, const sl_item *a, sl_str ka, const sl_item *b,
                   sl_str kb) {
  const sl_key_schema *ks = o->run_ks;
  uint32_t nh = sl_key_n_hash(ks), np = nh + sl_key_n_range(ks);
  for (uint32_t i = nh; i < np; i++) {
    sl_str name = sl_key_part(ks, i).name;
    const sl_av *va = sl_item_get(a, name), *vb = sl_item_get(b, name);
    if (!va || !vb) {
      if (va != vb)
        return va ? 1 : -1;
      continue;
    }
    int c = sl_av_cmp_scalar(va, vb);
    if (c)
      return c;
  }
  return sl_str_cmp(ka, kb);
}

static int run_qsort_cmp(const void *pa, const void *pb, void *ctx) {
  const sl_page_opts *o = ctx;
  const run_entry *a = pa, *b = pb;
  int c = run_cmp(o, &a->it, a->key, &b->it, b->key);
  return o->forward ? c : -c;
}

/* Reads the run that starts at (k, v) (the first entry in the page's
 * direction) whole, sorts it, and leaves the cursor's next entry pending. */
static void gather_run(entries *e, sl_str k, sl_str v) {
  size_t cap = 16;
  e->run = SL_NEW_ARRAY(e->req->arena, run_entry, cap);
  e->n_run = e->i_run = 0;
  sl_str first = k;
  bool ok = true;
  while (ok && same_run(e->o, first, k)) {
    if (e->n_run == cap) {
      e->run = sl_arena_realloc(e->req->arena, e->run, cap * sizeof(run_entry),
                                2 * cap * sizeof(run_entry));
      cap *= 2;
    }
    run_entry *r = &e->run[e->n_run++];
    r->key = k;
    r->val = v;
    if (!sl_item_decode(e->req->arena, v.p, v.len, &r->it, NULL))
      SL_ASSERT(!"corrupt item in storage");
    ok = next_entry(e->c, e->o, &k, &v);
  }
  e->pending = ok;
  e->pk = k;
  e->pv = v;
  qsort_r(e->run, e->n_run, sizeof(run_entry), run_qsort_cmp, (void *)e->o);
}

/* Hands out (k, v) or, when it starts a run, the run's first entry. */
static bool take(entries *e, bool ok, sl_str *k, sl_str *v) {
  if (!ok || !in_run(e->o, *k))
    return ok;
  gather_run(e, *k, *v);
  *k = e->run[0].key;
  *v = e->run[0].val;
  e->i_run = 1;
  return true;
}

static bool entries_next(entries *e, sl_str *k, sl_str *v) {
  if (e->i_run < e->n_run) {
    *k = e->run[e->i_run].key;
    *v = e->run[e->i_run].val;
    e->i_run++;
    return true;
  }
  if (e->pending) {
    e->pending = false;
    *k = e->pk;
    *v = e->pv;
    return take(e, true, k, v);
  }
  return take(e, next_entry(e->c, e->o, k, v), k, v);
}

static bool entries_first(entries *e, sl_str *k, sl_str *v) {
  const sl_page_opts *o = e->o;
  sl_str esk = o->exclusive_start;
  if (!in_run(o, esk) || !o->start_item)
    return take(e, first_entry(e->c, o, k, v), k, v);
  /* The start key is in a run: read the run from its beginning and hand out
   * only what follows the start key in the true order. */
  sl_buf edge;
  sl_buf_init(&edge, e->req->arena);
  sl_buf_append(&edge, esk.p, o->run_at);
  bool ok;
  if (o->forward) {
    ok = sl_cursor_seek(e->c, sl_buf_str(&edge), k, v);
  } else {
    sl_key_successor(&edge);
    ok = sl_cursor_seek_last_before(e->c, sl_buf_str(&edge), k, v);
  }
  ok = ok && sl_str_cmp(*k, o->lo) >= 0 && sl_str_cmp(*k, o->hi) < 0;
  if (!ok || !same_run(o, *k, esk)) {
    if (ok && (o->forward ? sl_str_cmp(*k, esk) > 0 : sl_str_cmp(*k, esk) < 0))
      return take(e, true, k, v);
    return take(e, first_entry(e->c, o, k, v), k, v);
  }
  gather_run(e, *k, *v);
  while (e->i_run < e->n_run) {
    const run_entry *r = &e->run[e->i_run];
    int c = run_cmp(o, &r->it, r->key, o->start_item, esk);
    if (o->forward ? c > 0 : c < 0)
      break;
    e->i_run++;
  }
  return entries_next(e, k, v);
}

sl_err sl_page_read(sl_req *req, sl_txn *txn, const sl_page_opts *o, sl_page_result *out) {
  sl_err err = SL_OK;
  memset(out, 0, sizeof(*out));
  sl_cost_read how = o->consistent ? SL_COST_STRONG : SL_COST_EVENTUAL;
  sl_cap_res *res = o->x && o->x->global ? o->x->cap : o->t->cap;

  /* Admission before reading (capacity-model.md §3): every bucket of the
   * partition where the page starts must be positive. */
  sl_str start = o->exclusive_start.len ? o->exclusive_start : o->forward ? o->lo : o->hi;
  sl_cap_charge pre = {.res = res, .dir = SL_CAP_READ, .cost_mu = 0};
  if (start.len >= SL_KEY_PREFIX_LEN)
    pre.hash = sl_key_hash_of(start.p);
  if (res && !o->preview && (err = sl_req_check(req, &pre, 1)) != SL_OK)
    return err;

  size_t cap_items = 64;
  out->items = o->count_only ? NULL : SL_NEW_ARRAY(req->arena, sl_item, cap_items);
  uint64_t bytes = 0;
  int64_t base_mu = 0;
  /* Sizes and items read, for spreading a Scan's cost over its partitions. */
  size_t n_read = 0, cap_read = 64;
  sl_item *read_items = SL_NEW_ARRAY(req->arena, sl_item, cap_read);
  size_t *read_sizes = SL_NEW_ARRAY(req->arena, size_t, cap_read);

  sl_cursor *c = sl_store_cursor(txn, SL_DB_ITEMS);
  entries src = {.req = req, .o = o, .c = c};
  sl_str k, val;
  for (bool ok = entries_first(&src, &k, &val); ok; ok = entries_next(&src, &k, &val)) {
    sl_item it;
    size_t size;
    if (!sl_item_decode(req->arena, val.p, val.len, &it, &size))
      SL_ASSERT(!"corrupt item in storage");
    bytes += size;
    out->scanned++;
    if (o->fetch_base) {
      sl_keyvals kv;
      bool found;
      sl_item base;
      size_t base_size;
      if (sl_item_keyvals(&it, &o->t->key, &kv) &&
          (err = sl_store_item_get(txn, o->t, &kv, req->arena, &base, &found, &base_size)) ==
              SL_OK &&
          found) {
        it = base;
        base_mu += sl_cost_lsi_fetch_mu(base_size, how);
      }
      if (err != SL_OK)
        goto out;
    }
    if (n_read == cap_read) {
      read_items = sl_arena_realloc(req->arena, read_items, cap_read * sizeof(sl_item),
                                    2 * cap_read * sizeof(sl_item));
      read_sizes = sl_arena_realloc(req->arena, read_sizes, cap_read * sizeof(size_t),
                                    2 * cap_read * sizeof(size_t));
      cap_read *= 2;
    }
    read_items[n_read] = it;
    read_sizes[n_read] = size;
    n_read++;
    bool keep = true;
    if (o->filter && (err = o->filter(req, o->filter_ctx, &it, &keep)) != SL_OK)
      goto out;
    if (keep) {
      if (!o->count_only) {
        if (out->n == cap_items) {
          out->items = sl_arena_realloc(req->arena, out->items, cap_items * sizeof(sl_item),
                                        2 * cap_items * sizeof(sl_item));
          cap_items *= 2;
        }
        out->items[out->n] = it;
      }
      out->n++;
    }
    if ((o->limit > 0 && out->scanned >= o->limit) || bytes >= SL_PAGE_MAX_BYTES) {
      /* Stopped by Limit or by the page size: the service returns a
       * LastEvaluatedKey even when nothing follows. */
      out->more = true;
      out->last = it;
      break;
    }
  }

  /* Price once per page and debit (facts §2.2). */
  int64_t mu = sl_cost_read_units_mu((size_t)bytes, how);
  out->bytes = bytes;
  if (o->x && o->x->global) {
    out->index_mu = mu;
  } else if (o->x) {
    out->index_mu = mu;
    out->table_mu = base_mu;
  } else {
    out->table_mu = mu;
  }
  if (res && !o->preview) {
    size_t n_charges = n_read && !o->is_query ? n_read : 1;
    sl_cap_charge *charges = SL_NEW_ARRAY(req->arena, sl_cap_charge, n_charges);
    int64_t total = mu + base_mu;
    if (n_read == 0) {
      charges[0] = pre;
      charges[0].cost_mu = total;
    } else if (o->is_query) {
      charge_for(req, o->t, o->x, &read_items[0], &charges[0]);
      charges[0].cost_mu = total;
    } else {
      /* A Scan's cost lands on the partitions it read, by bytes. */
      int64_t given = 0;
      for (size_t i = 0; i < n_read; i++) {
        charge_for(req, o->t, o->x, &read_items[i], &charges[i]);
        charges[i].cost_mu = bytes ? (int64_t)((__int128)total * read_sizes[i] / bytes) : 0;
        given += charges[i].cost_mu;
      }
      charges[0].cost_mu += total - given;
    }
    sl_req_debit(req, charges, n_charges);
  }
out:
  sl_cursor_close(c);
  return err;
}
