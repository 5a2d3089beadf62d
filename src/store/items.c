/* Items with their index entries; see items.h. */
#include "store/items.h"
#include "base/log.h"
#include "store/key.h"
#include "base/base64.h"
#include "base/num.h"

void sl_store_item_key(sl_buf *b, const sl_table *t, const sl_keyvals *kv) {
  sl_key_item(b, t->id, kv->hash, kv->range);
}

sl_err sl_store_item_get(sl_txn *txn, const sl_table *t, const sl_keyvals *kv, sl_arena *a,
                         sl_item *out, bool *found, size_t *size_out) {
  char kbuf[256];
  sl_buf b = {kbuf, 0, sizeof(kbuf), a}; /* grows into the arena if the key is large */
  sl_store_item_key(&b, t, kv);
  sl_str val;
  *found = sl_store_get(txn, SL_DB_ITEMS, sl_buf_str(&b), &val);
  if (!*found) {
    out->attrs = NULL;
    out->n = 0;
    if (size_out)
      *size_out = 0;
    return SL_OK;
  }
  /* In a write transaction the page under 'val' may be rewritten in place by
   * the coming put (MDB_WRITEMAP): decode from a copy of the bytes in the arena
   * (the decoded item points into what it decodes). */
  if (sl_store_txn_writable(txn))
    val = sl_arena_strdup(a, val);
  if (!sl_item_decode(a, val.p, val.len, out, size_out))
    SL_ASSERT(!"corrupt item in storage");
  return SL_OK;
}

static void index_entry_key(sl_buf *b, const sl_table *t, const sl_index *x, const sl_item *it) {
  sl_keyvals ik, tk;
  bool ok = sl_item_keyvals(it, &x->key, &ik) && sl_item_keyvals(it, &t->key, &tk);
  SL_ASSERT(ok);
  sl_key_index_entry_tuple(b, x->id, &ik.hashes, &ik.ranges, tk.hash, tk.range);
}

/* Removes the old entry and writes the new one of every index. */
static sl_err write_indexes(sl_txn *txn, const sl_table *t, const sl_item *old, const sl_item *item,
                            sl_arena *a, sl_failure *f) {
  sl_buf okey, nkey, val;
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    sl_item oe, ne;
    bool had = old && sl_index_project(a, t, x, old, &oe);
    bool has = item && sl_index_project(a, t, x, item, &ne);
    sl_buf_init(&okey, a);
    sl_buf_init(&nkey, a);
    if (had)
      index_entry_key(&okey, t, x, old);
    if (has)
      index_entry_key(&nkey, t, x, item);
    if (had && !(has && sl_str_eq(sl_buf_str(&okey), sl_buf_str(&nkey)))) {
      sl_err err = sl_store_del(txn, SL_DB_ITEMS, sl_buf_str(&okey), f);
      if (err != SL_OK)
        return err;
    }
    if (has) {
      sl_buf_init(&val, a);
      sl_item_encode(&val, &ne);
      sl_err err = sl_store_put(txn, SL_DB_ITEMS, sl_buf_str(&nkey), sl_buf_str(&val), f);
      if (err != SL_OK)
        return err;
    }
  }
  return SL_OK;
}

static sl_err item_put(sl_txn *txn, const sl_table *t, const sl_item *old, const sl_item *item,
                       sl_arena *a, sl_failure *f, sl_str *enc_out) {
  sl_keyvals kv;
  bool ok = sl_item_keyvals(item, &t->key, &kv);
  SL_ASSERT(ok);
  char kbuf[256], vbuf[1024];
  sl_buf key = {kbuf, 0, sizeof(kbuf), a};
  sl_buf val = {vbuf, 0, sizeof(vbuf), a};
  sl_store_item_key(&key, t, &kv);
  sl_item_encode(&val, item);
  sl_err err = sl_store_put(txn, SL_DB_ITEMS, sl_buf_str(&key), sl_buf_str(&val), f);
  if (err == SL_OK && t->n_indexes)
    err = write_indexes(txn, t, old, item, a, f);
  /* For the change-capture hook of a table with a stream (items.h); it must
   * outlive the stack buffer. */
  if (t->stream_enabled)
    *enc_out = val.p == vbuf ? sl_arena_strdup(a, sl_buf_str(&val)) : sl_buf_str(&val);
  return err;
}

static sl_err item_delete(sl_txn *txn, const sl_table *t, const sl_item *old, sl_arena *a,
                          sl_failure *f) {
  sl_keyvals kv;
  bool ok = sl_item_keyvals(old, &t->key, &kv);
  SL_ASSERT(ok);
  char kbuf[256];
  sl_buf key = {kbuf, 0, sizeof(kbuf), a};
  sl_store_item_key(&key, t, &kv);
  sl_err err = sl_store_del(txn, SL_DB_ITEMS, sl_buf_str(&key), f);
  if (err == SL_OK && t->n_indexes)
    err = write_indexes(txn, t, old, NULL, a, f);
  return err;
}

/* ---- item collections (see items.h) ---- */

int64_t sl_store_collection_share(sl_arena *a, const sl_table *t, const sl_item *it) {
  if (!it)
    return 0;
  int64_t bytes = (int64_t)sl_item_size(it);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    sl_item e;
    if (!t->indexes[i].global && sl_index_project(a, t, &t->indexes[i], it, &e))
      bytes += (int64_t)sl_item_size(&e);
  }
  return bytes;
}

/* Sums the stored sizes of the entries whose keys start with 'prefix'. */
static int64_t sum_prefix(sl_txn *txn, sl_str prefix) {
  sl_cursor *c = sl_store_cursor(txn, SL_DB_ITEMS);
  sl_str k, v;
  int64_t bytes = 0;
  for (bool ok = sl_cursor_seek(c, prefix, &k, &v); ok && sl_str_starts_with(k, prefix);
       ok = sl_cursor_next(c, &k, &v)) {
    size_t sz = 0;
    if (sl_item_encoded_size(v.p, v.len, &sz))
      bytes += (int64_t)sz;
  }
  sl_cursor_close(c);
  return bytes;
}

/* The collection's size by reading it: its items, then its LSI entries. */
static int64_t collection_scan(sl_txn *txn, const sl_table *t, const sl_av *pk, sl_arena *a) {
  uint64_t hash = sl_key_hash(pk);
  sl_buf b;
  sl_buf_init(&b, a);
  sl_key_put_prefix(&b, t->id, hash);
  sl_key_put_component(&b, pk, SL_KEY_PK_MAX);
  int64_t bytes = sum_prefix(txn, sl_buf_str(&b));
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    if (t->indexes[i].global)
      continue;
    sl_buf_init(&b, a);
    sl_key_put_prefix(&b, t->indexes[i].id, hash);
    sl_key_put_component(&b, pk, SL_KEY_INDEX_PK_MAX);
    bytes += sum_prefix(txn, sl_buf_str(&b));
  }
  return bytes;
}

static sl_err collection_change(sl_txn *txn, const sl_table *t, const sl_av *pk, int64_t delta,
                                int64_t max, int64_t *bytes_out, sl_arena *a, sl_failure *f) {
  sl_buf key;
  sl_buf_init(&key, a);
  uint8_t id[4];
  sl_be32(id, t->id);
  sl_buf_puts(&key, SL_STR("ic"));
  sl_buf_append(&key, id, 4);
  sl_key_put_component(&key, pk, SL_KEY_PK_MAX);
  sl_str val;
  int64_t bytes;
  if (sl_store_get(txn, SL_DB_META, sl_buf_str(&key), &val) && val.len == 8)
    memcpy(&bytes, val.p, 8);
  else
    bytes = collection_scan(txn, t, pk, a);
  if (delta > 0 && bytes + delta > max)
    return sl_failf(f, SL_E_ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED, "Collection size exceeded.");
  bytes = bytes + delta > 0 ? bytes + delta : 0;
  if (bytes_out)
    *bytes_out = bytes;
  if (delta == 0)
    return SL_OK;
  return sl_store_put(txn, SL_DB_META, sl_buf_str(&key), sl_str_make((const char *)&bytes, 8), f);
}

/* A key component of type 'type' as text (see sl_store_collection). */
static sl_str component_text(sl_arena *a, const uint8_t *p, size_t len, uint8_t type) {
  if (type == SL_AV_N) {
    sl_num n;
    char tmp[SL_NUM_MAX_TEXT];
    if (sl_num_decode_ordered(p, len, &n) == 0)
      return SL_STR("?");
    size_t k = sl_num_format(&n, tmp);
    return sl_arena_strdup(a, sl_str_make(tmp, k));
  }
  /* S and B: 0x00 is escaped as 0x00 0xFF; 0x00 0x01 ends the value. */
  char *raw = sl_arena_alloc(a, len + 1);
  size_t n = 0;
  bool ended = false;
  for (size_t i = 0; i < len; i++) {
    if (p[i] == 0 && i + 1 < len && p[i + 1] == 0xFF) {
      raw[n++] = 0;
      i++;
    } else if (p[i] == 0 && i + 1 < len && p[i + 1] == 0x01) {
      ended = true;
      break;
    } else {
      raw[n++] = (char)p[i];
    }
  }
  if (!ended) /* cut: the prefix without the digest */
    n = n > SL_KEY_DIGEST ? n - SL_KEY_DIGEST : 0;
  sl_buf b;
  sl_buf_init(&b, a);
  if (type == SL_AV_B) {
    char *enc = sl_arena_alloc(a, sl_base64_encoded_len(n) + 1);
    sl_buf_append(&b, enc, sl_base64_encode(raw, n, enc));
  } else {
    sl_buf_append(&b, raw, n);
  }
  if (!ended)
    sl_buf_puts(&b, SL_STR("…"));
  return sl_buf_str(&b);
}

void sl_store_collections_top(sl_txn *txn, sl_arena *a, const sl_table *t, size_t limit,
                              size_t scan_max, sl_store_collection *out, size_t *n_out,
                              size_t *n_seen, bool *more) {
  *n_out = *n_seen = 0;
  *more = false;
  if (limit > 64)
    limit = 64;
  uint8_t prefix[6] = {'i', 'c'};
  sl_be32(prefix + 2, t->id);
  sl_str pre = sl_str_make((const char *)prefix, 6);
  struct {
    sl_str key;
    int64_t bytes;
  } top[64];
  size_t n = 0, scanned = 0;
  sl_cursor *c = sl_store_cursor(txn, SL_DB_META);
  sl_str k, v;
  for (bool ok = sl_cursor_seek(c, pre, &k, &v); ok && sl_str_starts_with(k, pre);
       ok = sl_cursor_next(c, &k, &v)) {
    if (scanned == scan_max) {
      *more = true;
      break;
    }
    scanned++;
    int64_t bytes;
    if (v.len != 8)
      continue;
    memcpy(&bytes, v.p, 8);
    if (bytes <= 0)
      continue;
    (*n_seen)++;
    if (n == limit && (limit == 0 || bytes <= top[n - 1].bytes))
      continue;
    size_t at = n < limit ? n++ : n - 1;
    while (at > 0 && top[at - 1].bytes < bytes) {
      top[at] = top[at - 1];
      at--;
    }
    top[at].key = sl_arena_strdup(a, sl_str_make(k.p + 6, k.len - 6));
    top[at].bytes = bytes;
  }
  sl_cursor_close(c);
  for (size_t i = 0; i < n; i++) {
    out[i].pk = component_text(a, (const uint8_t *)top[i].key.p, top[i].key.len, t->key.hash_type);
    out[i].bytes = top[i].bytes;
  }
  *n_out = n;
}

/* ---- the write funnel ---- */

sl_err sl_store_apply(sl_txn *txn, sl_store_change *c, sl_arena *a, sl_failure *f) {
  const sl_table *t = c->t;
  sl_err err = SL_OK;
  c->has_collection = false;
  c->collection_bytes = 0;
  if (sl_table_has_lsi(t) && c->key) {
    /* Checked before anything is written: a collection past its limit
     * refuses the change whole. A change of nothing (a delete of a missing
     * item) still reports the collection's size. */
    sl_keyvals kv = *c->key;
    int64_t delta =
        sl_store_collection_share(a, t, c->item) - sl_store_collection_share(a, t, c->old);
    int64_t max = c->collection_max > 0 ? c->collection_max : INT64_MAX;
    if ((err = collection_change(txn, t, kv.hash, delta, max, &c->collection_bytes, a, f)) != SL_OK)
      return err;
    c->has_collection = true;
  }
  if (!c->old && !c->item)
    return SL_OK;
  c->item_enc = (sl_str){0};
  err = c->item ? item_put(txn, t, c->old, c->item, a, f, &c->item_enc)
                : item_delete(txn, t, c->old, a, f);
  if (err != SL_OK)
    return err;
  return sl__store_capture_call(txn, c, a, f);
}

static void account(uint64_t *count, uint64_t *bytes, bool had, size_t old_size, bool has,
                    size_t new_size) {
  if (had) {
    *count -= *count ? 1 : 0;
    *bytes -= *bytes >= old_size ? old_size : *bytes;
  }
  if (has) {
    *count += 1;
    *bytes += new_size;
  }
}

void sl_store_item_account(sl_table *t, const sl_item *old, const sl_item *item, sl_arena *a) {
  account(&t->item_count, &t->size_bytes, old != NULL, old ? sl_item_size(old) : 0, item != NULL,
          item ? sl_item_size(item) : 0);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    sl_index *x = &t->indexes[i];
    sl_item oe, ne;
    bool had = old && sl_index_project(a, t, x, old, &oe);
    bool has = item && sl_index_project(a, t, x, item, &ne);
    account(&x->item_count, &x->size_bytes, had, had ? sl_item_size(&oe) : 0, has,
            has ? sl_item_size(&ne) : 0);
  }
}

/* Counts the entries of one resource and sums their item sizes. */
void sl_store_resource_count(sl_txn *txn, uint32_t id, uint64_t *n_out, uint64_t *bytes_out) {
  uint8_t lo[4], hi[4];
  sl_be32(lo, id);
  sl_be32(hi, id + 1);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_ITEMS);
  sl_str k, v;
  uint64_t n = 0, bytes = 0;
  for (bool ok = sl_cursor_seek(c, sl_str_make((char *)lo, 4), &k, &v); ok;
       ok = sl_cursor_next(c, &k, &v)) {
    if (sl_str_cmp(k, sl_str_make((char *)hi, 4)) >= 0)
      break;
    size_t sz = 0;
    if (sl_item_encoded_size(v.p, v.len, &sz))
      bytes += sz;
    n++;
  }
  sl_cursor_close(c);
  *n_out = n;
  *bytes_out = bytes;
}
