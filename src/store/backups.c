/* On-demand backups in LMDB; see backups.h. Pinned by
 * tests/conformance/test_backups.py. */
#include "store/backups.h"
#include "base/json.h"
#include "base/log.h"
#include "store/item.h"
#include "store/key.h"

static void record_key(sl_buf *b, sl_str arn) {
  sl_buf_puts(b, SL_STR("bk"));
  sl_buf_puts(b, arn);
}

typedef struct {
  sl_str key, val;
} kv_copy;

/* Copies every entry of resource 'id' into 'a' (the caller writes the same
 * database afterwards, which may move the pages under the cursor). */
static kv_copy *read_resource(sl_txn *txn, uint32_t id, sl_arena *a, size_t *n_out) {
  uint8_t lo[4], hi[4];
  sl_be32(lo, id);
  sl_be32(hi, id + 1);
  size_t n = 0, cap = 64;
  kv_copy *rows = SL_NEW_ARRAY(a, kv_copy, cap);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_ITEMS);
  sl_str k, v;
  for (bool ok = sl_cursor_seek(c, sl_str_make((char *)lo, 4), &k, &v);
       ok && sl_str_cmp(k, sl_str_make((char *)hi, 4)) < 0; ok = sl_cursor_next(c, &k, &v)) {
    if (n == cap) {
      rows = sl_arena_realloc(a, rows, cap * sizeof(kv_copy), 2 * cap * sizeof(kv_copy));
      cap *= 2;
    }
    rows[n].key = sl_arena_strdup(a, k);
    rows[n].val = sl_arena_strdup(a, v);
    n++;
  }
  sl_cursor_close(c);
  *n_out = n;
  return rows;
}

static void write_record(sl_buf *b, const sl_backup *bk) {
  sl_jw w;
  sl_jw_init(&w, b);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "arn");
  sl_jw_str(&w, bk->arn);
  sl_jw_key_c(&w, "name");
  sl_jw_str(&w, bk->name);
  sl_jw_key_c(&w, "table");
  sl_jw_str(&w, bk->table_record);
  sl_jw_key_c(&w, "created_ms");
  sl_jw_int(&w, (int64_t)bk->created_ms);
  sl_jw_key_c(&w, "items_id");
  sl_jw_int(&w, bk->items_id);
  sl_jw_key_c(&w, "item_count");
  sl_jw_int(&w, (int64_t)bk->item_count);
  sl_jw_key_c(&w, "size_bytes");
  sl_jw_int(&w, (int64_t)bk->size_bytes);
  sl_jw_obj_end(&w);
}

static int64_t get_int(const sl_json *o, const char *key) {
  const sl_json *v = sl_json_get(o, key);
  int64_t n = 0;
  if (v && v->type == SL_JSON_NUMBER)
    for (size_t i = 0; i < v->str.len && v->str.p[i] >= '0' && v->str.p[i] <= '9'; i++)
      n = n * 10 + (v->str.p[i] - '0');
  return n;
}

static sl_str get_str(sl_arena *a, const sl_json *o, const char *key) {
  const sl_json *v = sl_json_get(o, key);
  return v && v->type == SL_JSON_STRING ? sl_arena_strdup(a, v->str) : SL_STR_NULL;
}

static bool read_record(sl_arena *a, sl_str val, sl_backup *out) {
  sl_json *root;
  sl_json_error e;
  if (sl_json_parse(a, val.p, val.len, &root, &e) != 0 || root->type != SL_JSON_OBJECT)
    return false;
  out->arn = get_str(a, root, "arn");
  out->name = get_str(a, root, "name");
  out->table_record = get_str(a, root, "table");
  out->created_ms = (uint64_t)get_int(root, "created_ms");
  out->items_id = (uint32_t)get_int(root, "items_id");
  out->item_count = (uint64_t)get_int(root, "item_count");
  out->size_bytes = (uint64_t)get_int(root, "size_bytes");
  return true;
}

sl_err sl_backup_create(sl_txn *txn, const sl_table *t, sl_backup *b, sl_arena *a, sl_failure *f) {
  size_t n;
  kv_copy *rows = read_resource(txn, t->id, a, &n);
  b->item_count = 0;
  b->size_bytes = 0;
  for (size_t i = 0; i < n; i++) {
    sl_buf k;
    sl_buf_init(&k, a);
    uint8_t id[4];
    sl_be32(id, b->items_id);
    sl_buf_append(&k, id, 4);
    sl_buf_append(&k, rows[i].key.p + 4, rows[i].key.len - 4);
    sl_err err = sl_store_put(txn, SL_DB_ITEMS, sl_buf_str(&k), rows[i].val, f);
    if (err != SL_OK)
      return err;
    size_t size = 0;
    if (sl_item_encoded_size(rows[i].val.p, rows[i].val.len, &size))
      b->size_bytes += size;
    b->item_count++;
  }
  sl_buf key, val;
  sl_buf_init(&key, a);
  sl_buf_init(&val, a);
  record_key(&key, b->arn);
  write_record(&val, b);
  return sl_store_put(txn, SL_DB_META, sl_buf_str(&key), sl_buf_str(&val), f);
}

sl_err sl_backup_get(sl_txn *txn, sl_str arn, sl_arena *a, sl_backup *out, bool *found) {
  sl_buf key;
  sl_buf_init(&key, a);
  record_key(&key, arn);
  sl_str val;
  *found = sl_store_get(txn, SL_DB_META, sl_buf_str(&key), &val) &&
           read_record(a, sl_arena_strdup(a, val), out);
  return SL_OK;
}

sl_err sl_backup_list(sl_txn *txn, sl_arena *a, sl_backup **out, size_t *n_out) {
  size_t n = 0, cap = 16;
  sl_backup *list = SL_NEW_ARRAY(a, sl_backup, cap);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_META);
  sl_str k, v;
  for (bool ok = sl_cursor_seek(c, SL_STR("bk"), &k, &v); ok && sl_str_starts_with(k, SL_STR("bk"));
       ok = sl_cursor_next(c, &k, &v)) {
    if (n == cap) {
      list = sl_arena_realloc(a, list, cap * sizeof(sl_backup), 2 * cap * sizeof(sl_backup));
      cap *= 2;
    }
    if (read_record(a, sl_arena_strdup(a, v), &list[n]))
      n++;
  }
  sl_cursor_close(c);
  *out = list;
  *n_out = n;
  return SL_OK;
}

sl_err sl_backup_delete(sl_txn *txn, const sl_backup *b, sl_arena *a, sl_failure *f) {
  size_t n;
  kv_copy *rows = read_resource(txn, b->items_id, a, &n);
  for (size_t i = 0; i < n; i++) {
    sl_err err = sl_store_del(txn, SL_DB_ITEMS, rows[i].key, f);
    if (err != SL_OK)
      return err;
  }
  sl_buf key;
  sl_buf_init(&key, a);
  record_key(&key, b->arn);
  return sl_store_del(txn, SL_DB_META, sl_buf_str(&key), f);
}

sl_err sl_backup_items(sl_txn *txn, const sl_backup *b, sl_arena *a, sl_backup_item_fn fn,
                       void *ctx) {
  size_t n;
  kv_copy *rows = read_resource(txn, b->items_id, a, &n);
  for (size_t i = 0; i < n; i++) {
    sl_item it;
    if (!sl_item_decode(a, rows[i].val.p, rows[i].val.len, &it, NULL))
      SL_ASSERT(!"corrupt item in storage");
    sl_err err = fn(ctx, &it);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}
