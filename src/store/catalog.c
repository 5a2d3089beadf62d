/* The catalog of tables; see catalog.h for the design. */
#include "store/catalog.h"
#include "base/json.h"
#include "base/log.h"
#include "store/item.h"
#include "store/items.h"
#include "store/key.h"

#include <stdio.h>
#include <stdlib.h>

struct sl_catalog {
  sl_table **tables; /* sorted by name */
  size_t n, cap;
};

sl_catalog *sl_catalog_new(void) {
  sl_catalog *c = calloc(1, sizeof(*c));
  if (!c)
    sl_panic("out of memory");
  return c;
}

void sl_catalog_free(sl_catalog *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->n; i++)
    sl_table_free(c->tables[i]);
  free(c->tables);
  free(c);
}

/* Index of the first table with name >= 'name'. */
static size_t lower_bound(const sl_catalog *c, sl_str name) {
  size_t lo = 0, hi = c->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sl_str_cmp(c->tables[mid]->name, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

size_t sl_catalog_upper_bound(const sl_catalog *c, sl_str name) {
  size_t i = lower_bound(c, name);
  if (i < c->n && sl_str_eq(c->tables[i]->name, name))
    i++;
  return i;
}

sl_table *sl_catalog_get(const sl_catalog *c, sl_str name) {
  size_t i = lower_bound(c, name);
  return i < c->n && sl_str_eq(c->tables[i]->name, name) ? c->tables[i] : NULL;
}

size_t sl_catalog_count(const sl_catalog *c) { return c->n; }

sl_table *sl_catalog_at(const sl_catalog *c, size_t i) { return i < c->n ? c->tables[i] : NULL; }

void sl_catalog_install(sl_catalog *c, sl_table *t) {
  size_t i = lower_bound(c, t->name);
  if (i < c->n && sl_str_eq(c->tables[i]->name, t->name)) {
    if (c->tables[i] != t)
      sl_table_free(c->tables[i]);
    c->tables[i] = t;
    return;
  }
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 16;
    c->tables = realloc(c->tables, c->cap * sizeof(*c->tables));
    if (!c->tables)
      sl_panic("out of memory");
  }
  memmove(&c->tables[i + 1], &c->tables[i], (c->n - i) * sizeof(*c->tables));
  c->tables[i] = t;
  c->n++;
}

sl_table *sl_catalog_take(sl_catalog *c, sl_str name) {
  size_t i = lower_bound(c, name);
  if (i >= c->n || !sl_str_eq(c->tables[i]->name, name))
    return NULL;
  sl_table *t = c->tables[i];
  memmove(&c->tables[i], &c->tables[i + 1], (c->n - i - 1) * sizeof(*c->tables));
  c->n--;
  return t;
}

void sl_catalog_remove(sl_catalog *c, sl_str name) { sl_table_free(sl_catalog_take(c, name)); }

/* ---- record format ---- */

static void write_key(sl_jw *w, const sl_key_schema *k) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "hash");
  sl_jw_str(w, k->hash);
  sl_jw_key_c(w, "hash_type");
  sl_jw_int(w, k->hash_type);
  if (sl_key_has_range(k)) {
    sl_jw_key_c(w, "range");
    sl_jw_str(w, k->range);
    sl_jw_key_c(w, "range_type");
    sl_jw_int(w, k->range_type);
  }
  if (sl_key_is_tuple(k)) {
    /* A multi-attribute key: every attribute, as [name, type, is_hash]. */
    sl_jw_key_c(w, "attrs");
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < (uint32_t)(k->n_hash + k->n_range); i++) {
      sl_jw_arr_begin(w);
      sl_jw_str(w, k->attrs[i].name);
      sl_jw_int(w, k->attrs[i].type);
      sl_jw_int(w, i < k->n_hash);
      sl_jw_arr_end(w);
    }
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
}

#define W_INT(w, name, v)                                                                          \
  do {                                                                                             \
    sl_jw_key_c((w), name);                                                                        \
    sl_jw_int((w), (int64_t)(v));                                                                  \
  } while (0)

static void write_tp(sl_jw *w, const sl_throughput *tp) {
  sl_jw_obj_begin(w);
  W_INT(w, "billing", tp->billing);
  W_INT(w, "rcu", tp->rcu);
  W_INT(w, "wcu", tp->wcu);
  if (tp->pending_rcu > 0) {
    W_INT(w, "pending_rcu", tp->pending_rcu);
    W_INT(w, "pending_wcu", tp->pending_wcu);
  }
  W_INT(w, "max_read_ru", tp->max_read_ru);
  W_INT(w, "max_write_ru", tp->max_write_ru);
  W_INT(w, "warm_read", tp->warm_read);
  W_INT(w, "warm_write", tp->warm_write);
  W_INT(w, "warm_prev_read", tp->warm_prev_read);
  W_INT(w, "warm_prev_write", tp->warm_prev_write);
  W_INT(w, "warm_status", tp->warm_status);
  W_INT(w, "warm_ready_ms", tp->warm_ready_ms);
  W_INT(w, "last_increase_ms", tp->last_increase_ms);
  W_INT(w, "last_decrease_ms", tp->last_decrease_ms);
  W_INT(w, "decreases_today", tp->decreases_today);
  W_INT(w, "decrease_day", tp->decrease_day);
  W_INT(w, "decrease_tokens_milli", tp->decrease_tokens_milli);
  W_INT(w, "decrease_tokens_ms", tp->decrease_tokens_ms);
  W_INT(w, "highest_rcu", tp->highest_rcu);
  W_INT(w, "highest_wcu", tp->highest_wcu);
  W_INT(w, "last_ppr_update_ms", tp->last_ppr_update_ms);
  sl_jw_key_c(w, "ppr_switch_ms");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < SL_ARRAY_LEN(tp->ppr_switch_ms); i++)
    sl_jw_int(w, (int64_t)tp->ppr_switch_ms[i]);
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

/* Binary keys as lower-case hex strings (JSON strings must be UTF-8). */
static void write_hex(sl_jw *w, const uint8_t *p, size_t len) {
  static const char digits[] = "0123456789abcdef";
  char buf[2 * SL_CURSOR_KEY_MAX];
  for (size_t i = 0; i < len; i++) {
    buf[2 * i] = digits[p[i] >> 4];
    buf[2 * i + 1] = digits[p[i] & 15];
  }
  sl_jw_str(w, sl_str_make(buf, 2 * len));
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/* Reads write_hex's form into out[cap]; returns the length, 0 if malformed. */
static uint16_t read_hex(const sl_json *v, uint8_t *out, size_t cap) {
  if (!v || v->type != SL_JSON_STRING || v->str.len % 2 || v->str.len / 2 > cap)
    return 0;
  for (size_t i = 0; i < v->str.len / 2; i++) {
    int hi = hex_digit(v->str.p[2 * i]), lo = hex_digit(v->str.p[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return 0;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return (uint16_t)(v->str.len / 2);
}

static void write_record(sl_buf *b, const sl_table *t) {
  sl_jw w;
  sl_jw_init(&w, b);
  sl_jw_obj_begin(&w);
  W_INT(&w, "format", 1);
  sl_jw_key_c(&w, "name");
  sl_jw_str(&w, t->name);
  sl_jw_key_c(&w, "arn");
  sl_jw_str(&w, t->arn);
  sl_jw_key_c(&w, "uuid");
  sl_jw_str_c(&w, t->uuid);
  W_INT(&w, "id", t->id);
  W_INT(&w, "version", t->version);
  sl_jw_key_c(&w, "key");
  write_key(&w, &t->key);
  sl_jw_key_c(&w, "defs");
  sl_jw_arr_begin(&w);
  for (uint32_t i = 0; i < t->n_defs; i++) {
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "name");
    sl_jw_str(&w, t->defs[i].name);
    W_INT(&w, "type", t->defs[i].type);
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "indexes");
  sl_jw_arr_begin(&w);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "name");
    sl_jw_str(&w, x->name);
    sl_jw_key_c(&w, "arn");
    sl_jw_str(&w, x->arn);
    W_INT(&w, "id", x->id);
    sl_jw_key_c(&w, "global");
    sl_jw_bool(&w, x->global);
    sl_jw_key_c(&w, "key");
    write_key(&w, &x->key);
    W_INT(&w, "projection", x->projection);
    sl_jw_key_c(&w, "non_key");
    sl_jw_arr_begin(&w);
    for (uint32_t j = 0; j < x->n_non_key; j++)
      sl_jw_str(&w, x->non_key[j]);
    sl_jw_arr_end(&w);
    W_INT(&w, "status", x->status);
    sl_jw_key_c(&w, "backfilling");
    sl_jw_bool(&w, x->backfilling);
    W_INT(&w, "status_until_ms", x->status_until_ms);
    sl_jw_key_c(&w, "tp");
    write_tp(&w, &x->tp);
    if (x->online) {
      sl_jw_key_c(&w, "online");
      sl_jw_bool(&w, true);
      W_INT(&w, "alloc_until_ms", x->alloc_until_ms);
      W_INT(&w, "backfill_until_ms", x->backfill_until_ms);
      W_INT(&w, "backfill_scanned", x->backfill_scanned);
      sl_jw_key_c(&w, "backfill_key");
      write_hex(&w, x->backfill_key, x->backfill_key_len);
    }
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "tp");
  write_tp(&w, &t->tp);
  W_INT(&w, "status", t->status);
  W_INT(&w, "status_until_ms", t->status_until_ms);
  W_INT(&w, "update_cause", t->update_cause);
  W_INT(&w, "created_ms", t->created_ms);
  sl_jw_key_c(&w, "tags");
  sl_jw_arr_begin(&w);
  for (uint32_t i = 0; i < t->n_tags; i++) {
    sl_jw_arr_begin(&w);
    sl_jw_str(&w, t->tags[i].key);
    sl_jw_str(&w, t->tags[i].value);
    sl_jw_arr_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "deletion_protection");
  sl_jw_bool(&w, t->deletion_protection);
  W_INT(&w, "table_class", t->table_class);
  sl_jw_key_c(&w, "stream_enabled");
  sl_jw_bool(&w, t->stream_enabled);
  sl_jw_key_c(&w, "stream_view_type");
  sl_jw_str(&w, t->stream_view_type);
  sl_jw_key_c(&w, "stream_label");
  sl_jw_str(&w, t->stream_label);
  sl_jw_key_c(&w, "ttl_attr");
  sl_jw_str(&w, t->ttl_attr);
  W_INT(&w, "ttl_status", t->ttl_status);
  W_INT(&w, "ttl_changed_ms", t->ttl_changed_ms);
  if (t->restore_backup_arn.len) {
    sl_jw_key_c(&w, "restore_backup_arn");
    sl_jw_str(&w, t->restore_backup_arn);
    sl_jw_key_c(&w, "restore_source_arn");
    sl_jw_str(&w, t->restore_source_arn);
    W_INT(&w, "restore_ms", t->restore_ms);
  }
  if (t->pitr_enabled) {
    sl_jw_key_c(&w, "pitr");
    sl_jw_bool(&w, true);
    W_INT(&w, "pitr_enabled_ms", t->pitr_enabled_ms);
    W_INT(&w, "pitr_days", t->pitr_days);
  }
  sl_jw_obj_end(&w);
}

static int64_t json_int(const sl_json *v) {
  if (!v || v->type != SL_JSON_NUMBER)
    return 0;
  char tmp[32];
  size_t n = v->str.len < sizeof(tmp) - 1 ? v->str.len : sizeof(tmp) - 1;
  memcpy(tmp, v->str.p, n);
  tmp[n] = 0;
  return strtoll(tmp, NULL, 10);
}

static int64_t get_int(const sl_json *o, const char *key) { return json_int(sl_json_get(o, key)); }

static sl_str get_str(sl_table *t, const sl_json *o, const char *key) {
  const sl_json *v = sl_json_get(o, key);
  return v && v->type == SL_JSON_STRING ? sl_table_str(t, v->str) : SL_STR_NULL;
}

static bool get_bool(const sl_json *o, const char *key) {
  const sl_json *v = sl_json_get(o, key);
  return v && v->type == SL_JSON_TRUE;
}

static void read_key(sl_table *t, const sl_json *o, sl_key_schema *k) {
  memset(k, 0, sizeof(*k));
  const sl_json *attrs = sl_json_get(o, "attrs");
  size_t n = attrs && attrs->type == SL_JSON_ARRAY ? attrs->arr.n : 0;
  for (size_t i = 0; i < n && i < 2 * SL_KEY_MAX_PARTS; i++) {
    const sl_json *a = attrs->arr.items[i];
    if (a->type != SL_JSON_ARRAY || a->arr.n != 3 || a->arr.items[0]->type != SL_JSON_STRING)
      continue;
    sl_key_schema_add(k, json_int(a->arr.items[2]) != 0, sl_table_str(t, a->arr.items[0]->str),
                      (uint8_t)json_int(a->arr.items[1]));
  }
  if (k->n_hash)
    return;
  sl_key_schema_add(k, true, get_str(t, o, "hash"), (uint8_t)get_int(o, "hash_type"));
  sl_str range = get_str(t, o, "range");
  if (range.len)
    sl_key_schema_add(k, false, range, (uint8_t)get_int(o, "range_type"));
}

static void read_tp(const sl_json *o, sl_throughput *tp) {
  tp->billing = (uint8_t)get_int(o, "billing");
  tp->rcu = get_int(o, "rcu");
  tp->wcu = get_int(o, "wcu");
  tp->pending_rcu = get_int(o, "pending_rcu"); /* absent: 0, none */
  tp->pending_wcu = get_int(o, "pending_wcu");
  tp->max_read_ru = get_int(o, "max_read_ru");
  tp->max_write_ru = get_int(o, "max_write_ru");
  tp->warm_read = get_int(o, "warm_read");
  tp->warm_write = get_int(o, "warm_write");
  tp->warm_prev_read = get_int(o, "warm_prev_read");
  tp->warm_prev_write = get_int(o, "warm_prev_write");
  tp->warm_status = (uint8_t)get_int(o, "warm_status");
  tp->warm_ready_ms = (uint64_t)get_int(o, "warm_ready_ms");
  tp->last_increase_ms = (uint64_t)get_int(o, "last_increase_ms");
  tp->last_decrease_ms = (uint64_t)get_int(o, "last_decrease_ms");
  tp->decreases_today = (uint32_t)get_int(o, "decreases_today");
  tp->decrease_day = get_int(o, "decrease_day");
  tp->decrease_tokens_milli = get_int(o, "decrease_tokens_milli");
  tp->decrease_tokens_ms = get_int(o, "decrease_tokens_ms");
  tp->highest_rcu = get_int(o, "highest_rcu");
  tp->highest_wcu = get_int(o, "highest_wcu");
  tp->last_ppr_update_ms = (uint64_t)get_int(o, "last_ppr_update_ms");
  const sl_json *sw = sl_json_get(o, "ppr_switch_ms");
  for (size_t i = 0; sw && sw->type == SL_JSON_ARRAY && i < sw->arr.n && i < 4; i++)
    tp->ppr_switch_ms[i] = (uint64_t)json_int(sw->arr.items[i]);
}

static sl_table *read_record(sl_str record) {
  sl_arena a;
  sl_arena_init(&a);
  sl_json *root;
  sl_json_error jerr;
  sl_table *t = NULL;
  if (sl_json_parse(&a, record.p, record.len, &root, &jerr) != 0 || root->type != SL_JSON_OBJECT)
    goto out;
  t = sl_table_new();
  t->name = get_str(t, root, "name");
  t->arn = get_str(t, root, "arn");
  sl_str uuid = get_str(t, root, "uuid");
  snprintf(t->uuid, sizeof(t->uuid), "%.*s", SL_STR_FMT(uuid));
  t->id = (uint32_t)get_int(root, "id");
  t->version = (uint32_t)get_int(root, "version");
  const sl_json *k = sl_json_get(root, "key");
  if (k)
    read_key(t, k, &t->key);
  const sl_json *defs = sl_json_get(root, "defs");
  size_t nd = defs && defs->type == SL_JSON_ARRAY ? defs->arr.n : 0;
  t->defs = SL_NEW_ARRAY(&t->mem, sl_attr_def, nd + 1);
  for (size_t i = 0; i < nd; i++) {
    t->defs[i].name = get_str(t, defs->arr.items[i], "name");
    t->defs[i].type = (uint8_t)get_int(defs->arr.items[i], "type");
  }
  t->n_defs = (uint32_t)nd;
  const sl_json *ix = sl_json_get(root, "indexes");
  size_t ni = ix && ix->type == SL_JSON_ARRAY ? ix->arr.n : 0;
  t->indexes = SL_NEW_ARRAY(&t->mem, sl_index, ni + 1);
  for (size_t i = 0; i < ni; i++) {
    const sl_json *o = ix->arr.items[i];
    sl_index *x = &t->indexes[i];
    x->name = get_str(t, o, "name");
    x->arn = get_str(t, o, "arn");
    x->id = (uint32_t)get_int(o, "id");
    x->global = get_bool(o, "global");
    const sl_json *xk = sl_json_get(o, "key");
    if (xk)
      read_key(t, xk, &x->key);
    x->projection = (uint8_t)get_int(o, "projection");
    const sl_json *nk = sl_json_get(o, "non_key");
    size_t nn = nk && nk->type == SL_JSON_ARRAY ? nk->arr.n : 0;
    x->non_key = SL_NEW_ARRAY(&t->mem, sl_str, nn + 1);
    for (size_t j = 0; j < nn; j++)
      if (nk->arr.items[j]->type == SL_JSON_STRING)
        x->non_key[x->n_non_key++] = sl_table_str(t, nk->arr.items[j]->str);
    x->status = (uint8_t)get_int(o, "status");
    x->backfilling = get_bool(o, "backfilling");
    x->status_until_ms = (uint64_t)get_int(o, "status_until_ms");
    const sl_json *tp = sl_json_get(o, "tp");
    if (tp)
      read_tp(tp, &x->tp);
    /* Online-creation state; absent from records written before it existed. */
    x->online = get_bool(o, "online");
    x->alloc_until_ms = (uint64_t)get_int(o, "alloc_until_ms");
    x->backfill_until_ms = (uint64_t)get_int(o, "backfill_until_ms");
    x->backfill_scanned = (uint64_t)get_int(o, "backfill_scanned");
    x->backfill_key_len =
        read_hex(sl_json_get(o, "backfill_key"), x->backfill_key, sizeof(x->backfill_key));
  }
  t->n_indexes = (uint32_t)ni;
  const sl_json *tp = sl_json_get(root, "tp");
  if (tp)
    read_tp(tp, &t->tp);
  t->status = (uint8_t)get_int(root, "status");
  t->status_until_ms = (uint64_t)get_int(root, "status_until_ms");
  t->update_cause = (uint8_t)get_int(root, "update_cause"); /* absent in older records: 0 */
  t->created_ms = (uint64_t)get_int(root, "created_ms");
  const sl_json *tags = sl_json_get(root, "tags");
  size_t nt = tags && tags->type == SL_JSON_ARRAY ? tags->arr.n : 0;
  t->tags = SL_NEW_ARRAY(&t->mem, sl_tag, nt + 1);
  for (size_t i = 0; i < nt; i++) {
    const sl_json *p = tags->arr.items[i];
    if (p->type != SL_JSON_ARRAY || p->arr.n != 2)
      continue;
    t->tags[t->n_tags].key = sl_table_str(t, p->arr.items[0]->str);
    t->tags[t->n_tags].value = sl_table_str(t, p->arr.items[1]->str);
    t->n_tags++;
  }
  t->deletion_protection = get_bool(root, "deletion_protection");
  t->table_class = (uint8_t)get_int(root, "table_class");
  t->stream_enabled = get_bool(root, "stream_enabled");
  t->stream_view_type = get_str(t, root, "stream_view_type");
  t->stream_label = get_str(t, root, "stream_label");
  t->ttl_attr = get_str(t, root, "ttl_attr");
  t->ttl_status = (uint8_t)get_int(root, "ttl_status");
  t->ttl_changed_ms = (uint64_t)get_int(root, "ttl_changed_ms");
  t->restore_backup_arn = get_str(t, root, "restore_backup_arn");
  t->restore_source_arn = get_str(t, root, "restore_source_arn");
  t->restore_ms = (uint64_t)get_int(root, "restore_ms");
  t->pitr_enabled = get_bool(root, "pitr");
  t->pitr_enabled_ms = (uint64_t)get_int(root, "pitr_enabled_ms");
  t->pitr_days = (uint32_t)get_int(root, "pitr_days");
out:
  sl_arena_destroy(&a);
  return t;
}

void sl_catalog_encode(sl_buf *b, const sl_table *t) { write_record(b, t); }

sl_table *sl_catalog_decode(sl_str record) { return read_record(record); }

sl_err sl_catalog_save(sl_txn *txn, const sl_table *t, sl_failure *f) {
  sl_buf b;
  sl_buf_init(&b, NULL);
  write_record(&b, t);
  sl_err err = sl_store_put(txn, SL_DB_CATALOG, t->name, sl_buf_str(&b), f);
  sl_buf_free(&b);
  return err;
}

sl_err sl_catalog_erase(sl_txn *txn, sl_str name, sl_failure *f) {
  return sl_store_del(txn, SL_DB_CATALOG, name, f);
}

sl_err sl_catalog_load(sl_catalog *c, sl_store *st, sl_failure *f) {
  sl_txn *txn;
  sl_err err = sl_store_begin(st, false, f, &txn);
  if (err != SL_OK)
    return err;
  sl_cursor *cur = sl_store_cursor(txn, SL_DB_CATALOG);
  sl_str k, v;
  for (bool ok = sl_cursor_first(cur, &k, &v); ok; ok = sl_cursor_next(cur, &k, &v)) {
    sl_table *t = read_record(v);
    if (!t) {
      sl_warn("catalog: unreadable record for table %.*s (skipped)", SL_STR_FMT(k));
      continue;
    }
    sl_store_resource_count(txn, t->id, &t->item_count, &t->size_bytes);
    for (uint32_t i = 0; i < t->n_indexes; i++)
      sl_store_resource_count(txn, t->indexes[i].id, &t->indexes[i].item_count,
                              &t->indexes[i].size_bytes);
    sl_catalog_install(c, t);
  }
  sl_cursor_close(cur);
  sl_store_abort(txn);
  return SL_OK;
}
