/*
 * `sluice size`: item size and capacity units from the server's own sizing
 * and pricing code; see size.h.
 */
#include "tools/size.h"
#include "cap/cost.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- input ---- */

static sl_json *jnode(sl_arena *a, sl_json_type t) {
  sl_json *j = SL_NEW(a, sl_json);
  j->type = t;
  return j;
}

/* {"<type>": v} */
static sl_json *typed(sl_arena *a, const char *type, sl_json *v) {
  sl_json *o = jnode(a, SL_JSON_OBJECT);
  o->obj.members = SL_NEW(a, sl_json_member);
  o->obj.members[0] = (sl_json_member){sl_str_c(type), v};
  o->obj.n = 1;
  return o;
}

/* Plain JSON value -> DynamoDB JSON value (the document clients' mapping). */
static sl_json *plain_to_ddb(sl_arena *a, const sl_json *v) {
  switch (v->type) {
  case SL_JSON_NULL:
    return typed(a, "NULL", jnode(a, SL_JSON_TRUE));
  case SL_JSON_TRUE:
  case SL_JSON_FALSE:
    return typed(a, "BOOL", jnode(a, v->type));
  case SL_JSON_NUMBER: {
    sl_json *s = jnode(a, SL_JSON_STRING);
    s->str = v->str;
    return typed(a, "N", s);
  }
  case SL_JSON_STRING: {
    sl_json *s = jnode(a, SL_JSON_STRING);
    s->str = v->str;
    return typed(a, "S", s);
  }
  case SL_JSON_ARRAY: {
    sl_json *l = jnode(a, SL_JSON_ARRAY);
    l->arr.n = v->arr.n;
    l->arr.items = SL_NEW_ARRAY(a, sl_json *, v->arr.n ? v->arr.n : 1);
    for (size_t i = 0; i < v->arr.n; i++)
      l->arr.items[i] = plain_to_ddb(a, v->arr.items[i]);
    return typed(a, "L", l);
  }
  case SL_JSON_OBJECT: {
    sl_json *m = jnode(a, SL_JSON_OBJECT);
    m->obj.n = v->obj.n;
    m->obj.members = SL_NEW_ARRAY(a, sl_json_member, v->obj.n ? v->obj.n : 1);
    for (size_t i = 0; i < v->obj.n; i++)
      m->obj.members[i] =
          (sl_json_member){v->obj.members[i].key, plain_to_ddb(a, v->obj.members[i].value)};
    return typed(a, "M", m);
  }
  }
  return NULL;
}

sl_err sl_size_plain_item(sl_failure *f, sl_arena *a, const sl_json *j, sl_item *out) {
  if (j->type != SL_JSON_OBJECT)
    return sl_failf(f, SL_E_VALIDATION, "an item must be a JSON object, not %s",
                    sl_json_type_name(j->type));
  sl_json *m = plain_to_ddb(a, j);
  return sl_item_from_json(f, a, m->obj.members[0].value, out);
}

static bool is_type_name(sl_str k) {
  static const char *const names[] = {"S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (sl_str_eq_c(k, names[i]))
      return true;
  return false;
}

sl_err sl_size_item(sl_failure *f, sl_arena *a, const sl_json *j, sl_item *out) {
  if (j->type != SL_JSON_OBJECT)
    return sl_failf(f, SL_E_VALIDATION, "an item must be a JSON object, not %s",
                    sl_json_type_name(j->type));
  /* GetItem's reply {"Item":{...}}: "Item" holding attribute values rather
   * than being one (its members are not type names). */
  if (j->obj.n == 1 && sl_str_eq_c(j->obj.members[0].key, "Item")) {
    const sl_json *v = j->obj.members[0].value;
    bool wrapped = v->type == SL_JSON_OBJECT;
    for (size_t i = 0; wrapped && i < v->obj.n; i++)
      if (is_type_name(v->obj.members[i].key))
        wrapped = false;
    if (wrapped)
      j = v;
  }
  for (size_t i = 0; i < j->obj.n; i++)
    if (j->obj.members[i].value->type != SL_JSON_OBJECT)
      return sl_failf(f, SL_E_VALIDATION,
                      "attribute '%.*s' is not a DynamoDB JSON value such as {\"S\":\"text\"} "
                      "(use --plain for plain JSON)",
                      SL_STR_FMT(j->obj.members[i].key));
  return sl_item_from_json(f, a, j, out);
}

static sl_err key_schema(sl_failure *f, const sl_json *ks, const char *where, sl_key_schema *k) {
  memset(k, 0, sizeof(*k));
  if (!ks || ks->type != SL_JSON_ARRAY || ks->arr.n < 1 || ks->arr.n > 2)
    return sl_failf(f, SL_E_VALIDATION, "%s.KeySchema: expected a list of 1 or 2 key elements",
                    where);
  for (size_t i = 0; i < ks->arr.n; i++) {
    const sl_json *e = ks->arr.items[i];
    const sl_json *n = sl_json_get(e, "AttributeName"), *t = sl_json_get(e, "KeyType");
    if (!n || n->type != SL_JSON_STRING || !n->str.len || !t || t->type != SL_JSON_STRING)
      return sl_failf(f, SL_E_VALIDATION,
                      "%s.KeySchema[%zu]: expected {\"AttributeName\":..,\"KeyType\":..}", where,
                      i);
    if (sl_str_eq_c(t->str, "HASH") && !k->hash.len)
      k->hash = n->str;
    else if (sl_str_eq_c(t->str, "RANGE") && !k->range.len)
      k->range = n->str;
    else
      return sl_failf(f, SL_E_VALIDATION,
                      "%s.KeySchema[%zu].KeyType: expected one HASH and at most one RANGE", where,
                      i);
  }
  if (!k->hash.len)
    return sl_failf(f, SL_E_VALIDATION, "%s.KeySchema: no HASH key", where);
  return SL_OK;
}

static sl_err attr_type(sl_failure *f, const sl_table *t, sl_str name, const char *where,
                        uint8_t *out) {
  for (uint32_t i = 0; i < t->n_defs; i++)
    if (sl_str_eq(t->defs[i].name, name)) {
      *out = t->defs[i].type;
      return SL_OK;
    }
  return sl_failf(f, SL_E_VALIDATION, "%s: key attribute '%.*s' is not in AttributeDefinitions",
                  where, SL_STR_FMT(name));
}

static sl_err typed_keys(sl_failure *f, const sl_table *t, sl_key_schema *k, const char *where) {
  sl_err err = attr_type(f, t, k->hash, where, &k->hash_type);
  if (err == SL_OK && k->range.len)
    err = attr_type(f, t, k->range, where, &k->range_type);
  return err;
}

static sl_err index_desc(sl_failure *f, sl_arena *a, sl_table *t, const sl_json *x, bool global,
                         const char *list, size_t i, sl_index *out) {
  char where[96];
  snprintf(where, sizeof(where), "%s[%zu]", list, i);
  memset(out, 0, sizeof(*out));
  out->global = global;
  const sl_json *name = sl_json_get(x, "IndexName");
  if (!name || name->type != SL_JSON_STRING || !name->str.len)
    return sl_failf(f, SL_E_VALIDATION, "%s.IndexName: expected a string", where);
  out->name = name->str;
  sl_err err = key_schema(f, sl_json_get(x, "KeySchema"), where, &out->key);
  if (err == SL_OK)
    err = typed_keys(f, t, &out->key, where);
  if (err != SL_OK)
    return err;
  const sl_json *p = sl_json_get(x, "Projection");
  const sl_json *pt = sl_json_get(p, "ProjectionType");
  if (!pt || sl_str_eq_c(pt->str, "ALL")) {
    out->projection = SL_PROJ_ALL;
  } else if (sl_str_eq_c(pt->str, "KEYS_ONLY")) {
    out->projection = SL_PROJ_KEYS_ONLY;
  } else if (sl_str_eq_c(pt->str, "INCLUDE")) {
    out->projection = SL_PROJ_INCLUDE;
    const sl_json *nk = sl_json_get(p, "NonKeyAttributes");
    if (!nk || nk->type != SL_JSON_ARRAY || nk->arr.n > 64)
      return sl_failf(f, SL_E_VALIDATION,
                      "%s.Projection.NonKeyAttributes: expected a list of at most 64 names", where);
    out->non_key = SL_NEW_ARRAY(a, sl_str, nk->arr.n ? nk->arr.n : 1);
    for (size_t k = 0; k < nk->arr.n; k++) {
      if (nk->arr.items[k]->type != SL_JSON_STRING)
        return sl_failf(f, SL_E_VALIDATION, "%s.Projection.NonKeyAttributes[%zu]: not a string",
                        where, k);
      out->non_key[out->n_non_key++] = nk->arr.items[k]->str;
    }
  } else {
    return sl_failf(f, SL_E_VALIDATION,
                    "%s.Projection.ProjectionType: expected ALL, KEYS_ONLY or INCLUDE", where);
  }
  return SL_OK;
}

sl_err sl_size_table(sl_failure *f, sl_arena *a, const sl_json *j, sl_table *t) {
  memset(t, 0, sizeof(*t));
  if (sl_json_get(j, "Table"))
    j = sl_json_get(j, "Table");
  else if (sl_json_get(j, "TableDescription"))
    j = sl_json_get(j, "TableDescription");
  if (!j || j->type != SL_JSON_OBJECT)
    return sl_failf(f, SL_E_VALIDATION, "table description: expected a JSON object");
  const sl_json *name = sl_json_get(j, "TableName");
  if (name && name->type == SL_JSON_STRING)
    t->name = name->str;
  const sl_json *defs = sl_json_get(j, "AttributeDefinitions");
  if (!defs || defs->type != SL_JSON_ARRAY)
    return sl_failf(f, SL_E_VALIDATION, "table description: AttributeDefinitions is missing");
  t->defs = SL_NEW_ARRAY(a, sl_attr_def, defs->arr.n ? defs->arr.n : 1);
  for (size_t i = 0; i < defs->arr.n; i++) {
    const sl_json *n = sl_json_get(defs->arr.items[i], "AttributeName");
    const sl_json *ty = sl_json_get(defs->arr.items[i], "AttributeType");
    uint8_t type = !ty || ty->type != SL_JSON_STRING ? 0
                   : sl_str_eq_c(ty->str, "S")       ? SL_AV_S
                   : sl_str_eq_c(ty->str, "N")       ? SL_AV_N
                   : sl_str_eq_c(ty->str, "B")       ? SL_AV_B
                                                     : 0;
    if (!n || n->type != SL_JSON_STRING || !type)
      return sl_failf(f, SL_E_VALIDATION,
                      "AttributeDefinitions[%zu]: expected {\"AttributeName\":..,"
                      "\"AttributeType\":\"S\"|\"N\"|\"B\"}",
                      i);
    t->defs[t->n_defs++] = (sl_attr_def){n->str, type};
  }
  sl_err err = key_schema(f, sl_json_get(j, "KeySchema"), "table", &t->key);
  if (err == SL_OK)
    err = typed_keys(f, t, &t->key, "table");
  if (err != SL_OK)
    return err;
  const sl_json *lsis = sl_json_get(j, "LocalSecondaryIndexes");
  const sl_json *gsis = sl_json_get(j, "GlobalSecondaryIndexes");
  size_t n = (lsis && lsis->type == SL_JSON_ARRAY ? lsis->arr.n : 0) +
             (gsis && gsis->type == SL_JSON_ARRAY ? gsis->arr.n : 0);
  if (n > SL_MAX_INDEXES)
    return sl_failf(f, SL_E_VALIDATION, "table description: more than %d indexes", SL_MAX_INDEXES);
  t->indexes = SL_NEW_ARRAY(a, sl_index, n ? n : 1);
  for (int g = 0; g < 2; g++) {
    const sl_json *list = g ? gsis : lsis;
    if (!list || list->type != SL_JSON_ARRAY)
      continue;
    for (size_t i = 0; i < list->arr.n; i++) {
      err = index_desc(f, a, t, list->arr.items[i], g == 1,
                       g ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes", i,
                       &t->indexes[t->n_indexes]);
      if (err != SL_OK)
        return err;
      t->n_indexes++;
    }
  }
  return SL_OK;
}

/* ---- analysis ---- */

static size_t overhead(const sl_av *v) {
  size_t o = 0;
  if (v->type == SL_AV_L) {
    o = 3 + v->n;
    for (uint32_t i = 0; i < v->n; i++)
      o += overhead(&v->list[i]);
  } else if (v->type == SL_AV_M) {
    o = 3 + v->n;
    for (uint32_t i = 0; i < v->n; i++)
      o += overhead(&v->map[i].v);
  }
  return o;
}

static uint32_t depth(const sl_av *v) {
  uint32_t d = 0;
  if (v->type == SL_AV_L)
    for (uint32_t i = 0; i < v->n; i++) {
      uint32_t c = depth(&v->list[i]);
      d = c > d ? c : d;
    }
  else if (v->type == SL_AV_M)
    for (uint32_t i = 0; i < v->n; i++) {
      uint32_t c = depth(&v->map[i].v);
      d = c > d ? c : d;
    }
  else
    return 0;
  return d + 1;
}

static void warn(sl_arena *a, sl_size_report *r, sl_str w) {
  if (r->n_warnings < SL_SIZE_MAX_WARNINGS)
    r->warnings[r->n_warnings++] = w;
}

/* The service's key checks of a PutItem (ops/req.c and the developer guide's
 * limits: partition key 2,048 bytes, sort key 1,024). */
static void check_key(sl_arena *a, sl_size_report *r, const sl_item *it, sl_str name, uint8_t type,
                      bool range) {
  const sl_av *v = sl_item_get(it, name);
  if (!v) {
    warn(a, r,
         sl_arena_printf(a,
                         "One or more parameter values were invalid: Missing the key %.*s in "
                         "the item",
                         SL_STR_FMT(name)));
    return;
  }
  if (v->type != type) {
    warn(a, r,
         sl_arena_printf(a,
                         "One or more parameter values were invalid: Type mismatch for key %.*s "
                         "expected: %s actual: %s",
                         SL_STR_FMT(name), sl_av_type_name(type), sl_av_type_name(v->type)));
    return;
  }
  size_t n = sl_av_size(v);
  if (!range && n > 2048)
    warn(a, r,
         SL_STR("One or more parameter values were invalid: Size of hashkey has exceeded the "
                "maximum size limit of2048 bytes"));
  if (range && n > 1024)
    warn(a, r,
         SL_STR("One or more parameter values were invalid: Aggregated size of all range keys "
                "has exceeded the size limit of 1024 bytes"));
}

void sl_size_analyse(sl_arena *a, const sl_item *item, const sl_item *old, const sl_table *t,
                     sl_size_report *r) {
  memset(r, 0, sizeof(*r));
  r->bytes = sl_item_size(item);
  r->old_bytes = old ? sl_item_size(old) : 0;
  r->n_attrs = item->n;
  r->attrs = SL_NEW_ARRAY(a, sl_size_attr, item->n ? item->n : 1);
  for (uint32_t i = 0; i < item->n; i++) {
    const sl_attr *at = &item->attrs[i];
    sl_size_attr *s = &r->attrs[i];
    s->name = at->name;
    s->type = sl_av_type_name((sl_av_type)at->v.type);
    s->name_bytes = at->name.len;
    s->value_bytes = sl_av_size(&at->v);
    s->overhead_bytes = overhead(&at->v);
    uint32_t d = depth(&at->v);
    r->depth = d > r->depth ? d : r->depth;
  }
  r->read_mu[SL_COST_EVENTUAL] = sl_cost_read_units_mu(r->bytes, SL_COST_EVENTUAL);
  r->read_mu[SL_COST_STRONG] = sl_cost_read_units_mu(r->bytes, SL_COST_STRONG);
  r->read_mu[SL_COST_TRANSACTIONAL] = sl_cost_read_units_mu(r->bytes, SL_COST_TRANSACTIONAL);
  /* The table part, as ops/write.c prices it. */
  r->write_mu = sl_cost_table_write_mu(r->old_bytes, r->bytes, false, false);
  r->txn_write_mu = sl_cost_table_write_mu(r->old_bytes, r->bytes, false, true);
  r->table_charged_mu = r->write_mu;
  r->total_mu = r->write_mu;
  r->total_txn_mu = r->txn_write_mu;
  r->lsi_bytes = r->bytes;
  if (r->bytes > SL_ITEM_MAX_BYTES)
    warn(a, r, SL_STR("Item size has exceeded the maximum allowed size"));
  if (!t)
    return;
  r->has_table = true;
  check_key(a, r, item, t->key.hash, t->key.hash_type, false);
  if (sl_key_has_range(&t->key))
    check_key(a, r, item, t->key.range, t->key.range_type, true);
  if (!t->n_indexes)
    return;
  sl_index_change *ch = SL_NEW_ARRAY(a, sl_index_change, t->n_indexes);
  sl_store_index_changes(a, t, old, item, ch);
  r->n_indexes = t->n_indexes;
  r->indexes = SL_NEW_ARRAY(a, sl_size_index, t->n_indexes);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index_change *c = &ch[i];
    sl_cost_index_change cc = {.had = c->had,
                               .has = c->has,
                               .key_changed = c->key_changed,
                               .changed = c->changed,
                               .old_size = c->old_size,
                               .new_size = c->new_size};
    sl_size_index *x = &r->indexes[i];
    x->name = t->indexes[i].name;
    x->global = t->indexes[i].global;
    x->in_index = c->has;
    x->entry_bytes = c->has ? c->new_size : 0;
    x->writes = sl_cost_index_writes(&cc);
    x->write_mu = sl_cost_index_write_mu(&cc, false);
    x->txn_write_mu = sl_cost_index_write_mu(&cc, true);
    x->fetch_mu[0] = x->fetch_mu[1] = -1;
    if (!x->global && c->has && t->indexes[i].projection != SL_PROJ_ALL) {
      x->fetch_mu[0] = sl_cost_lsi_fetch_mu(r->bytes, SL_COST_EVENTUAL);
      x->fetch_mu[1] = sl_cost_lsi_fetch_mu(r->bytes, SL_COST_STRONG);
    }
    if (!x->global) {
      r->table_charged_mu += x->write_mu;
      r->lsi_bytes += x->entry_bytes;
    }
    r->total_mu += x->write_mu;
    r->total_txn_mu += x->txn_write_mu;
  }
  /* facts §2.1: on a table with LSIs the 400 KB covers the item and its LSI
   * projections. */
  if (r->bytes <= SL_ITEM_MAX_BYTES && r->lsi_bytes > SL_ITEM_MAX_BYTES)
    warn(a, r,
         SL_STR("Item size has exceeded the maximum allowed size (the item with its local "
                "secondary index projections)"));
}

/* ---- output ---- */

static void units(sl_buf *b, int64_t mu) {
  if (mu % 1000 == 0) {
    sl_buf_printf(b, "%lld", (long long)(mu / 1000));
    return;
  }
  sl_buf_printf(b, "%lld.%03lld", (long long)(mu / 1000), (long long)(mu % 1000));
  while (b->p[b->len - 1] == '0')
    b->len--;
}

static void ju(sl_jw *w, const char *key, int64_t mu) {
  sl_jw_key_c(w, key);
  sl_jw_double(w, (double)mu / 1000);
}

void sl_size_write_json(sl_jw *w, const sl_size_report *r) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "bytes");
  sl_jw_uint(w, r->bytes);
  if (r->old_bytes) {
    sl_jw_key_c(w, "old_bytes");
    sl_jw_uint(w, r->old_bytes);
  }
  sl_jw_key_c(w, "limit_bytes");
  sl_jw_uint(w, SL_ITEM_MAX_BYTES);
  sl_jw_key_c(w, "depth");
  sl_jw_uint(w, r->depth);
  sl_jw_key_c(w, "attributes");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < r->n_attrs; i++) {
    const sl_size_attr *s = &r->attrs[i];
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "name");
    sl_jw_str(w, s->name);
    sl_jw_key_c(w, "type");
    sl_jw_str_c(w, s->type);
    sl_jw_key_c(w, "name_bytes");
    sl_jw_uint(w, s->name_bytes);
    sl_jw_key_c(w, "value_bytes");
    sl_jw_uint(w, s->value_bytes);
    sl_jw_key_c(w, "overhead_bytes");
    sl_jw_uint(w, s->overhead_bytes);
    sl_jw_key_c(w, "bytes");
    sl_jw_uint(w, s->name_bytes + s->value_bytes);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_key_c(w, "read");
  sl_jw_obj_begin(w);
  ju(w, "eventual", r->read_mu[SL_COST_EVENTUAL]);
  ju(w, "strong", r->read_mu[SL_COST_STRONG]);
  ju(w, "transactional", r->read_mu[SL_COST_TRANSACTIONAL]);
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "write");
  sl_jw_obj_begin(w);
  ju(w, "standard", r->write_mu);
  ju(w, "transactional", r->txn_write_mu);
  sl_jw_obj_end(w);
  if (r->has_table) {
    sl_jw_key_c(w, "indexes");
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < r->n_indexes; i++) {
      const sl_size_index *x = &r->indexes[i];
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "name");
      sl_jw_str(w, x->name);
      sl_jw_key_c(w, "kind");
      sl_jw_str_c(w, x->global ? "GSI" : "LSI");
      sl_jw_key_c(w, "in_index");
      sl_jw_bool(w, x->in_index);
      sl_jw_key_c(w, "entry_bytes");
      sl_jw_uint(w, x->entry_bytes);
      sl_jw_key_c(w, "writes");
      sl_jw_uint(w, x->writes);
      ju(w, "write_units", x->write_mu);
      ju(w, "transactional_write_units", x->txn_write_mu);
      sl_jw_key_c(w, "charged_to");
      sl_jw_str_c(w, x->global ? "index" : "table");
      if (x->fetch_mu[0] >= 0) {
        sl_jw_key_c(w, "fetch_read_units");
        sl_jw_obj_begin(w);
        ju(w, "eventual", x->fetch_mu[0]);
        ju(w, "strong", x->fetch_mu[1]);
        sl_jw_obj_end(w);
      }
      sl_jw_obj_end(w);
    }
    sl_jw_arr_end(w);
    ju(w, "table_charged_units", r->table_charged_mu);
    ju(w, "total_write_units", r->total_mu);
    ju(w, "total_transactional_write_units", r->total_txn_mu);
    sl_jw_key_c(w, "lsi_bytes");
    sl_jw_uint(w, r->lsi_bytes);
  }
  sl_jw_key_c(w, "warnings");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < r->n_warnings; i++)
    sl_jw_str(w, r->warnings[i]);
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

void sl_size_write_text(sl_buf *b, const sl_size_report *r) {
  sl_buf_printf(b, "item: %zu bytes (limit 409,600 bytes = 400 KB)", r->bytes);
  if (r->old_bytes)
    sl_buf_printf(b, ", replacing an item of %zu bytes", r->old_bytes);
  sl_buf_printf(b, "\n\n  %-24s %-4s %6s %7s %9s %7s\n", "attribute", "type", "name", "value",
                "overhead", "total");
  for (uint32_t i = 0; i < r->n_attrs; i++) {
    const sl_size_attr *s = &r->attrs[i];
    if (s->name.len > 24)
      sl_buf_printf(b, "  %.21s...", s->name.p);
    else
      sl_buf_printf(b, "  %-24.*s", (int)s->name.len, s->name.p);
    sl_buf_printf(b, " %-4s %6zu %7zu %9zu %7zu\n", s->type, s->name_bytes, s->value_bytes,
                  s->overhead_bytes, s->name_bytes + s->value_bytes);
  }
  sl_buf_printf(b, "  (overhead: the part of a value that is list/map structure, 3 bytes per list "
                   "or map plus 1 per element; included in value)\n");
  sl_buf_puts(b, SL_STR("\nread units (GetItem; BatchGetItem per item; 4 KB steps)\n"));
  static const char *const how[3] = {"eventually consistent", "strongly consistent",
                                     "transactional"};
  for (int i = 0; i < 3; i++) {
    sl_buf_printf(b, "  %-24s ", how[i]);
    units(b, r->read_mu[i]);
    sl_buf_puts(b, SL_STR(" RCU\n"));
  }
  sl_buf_printf(b, "\nwrite units of the table part (%s; 1 KB steps)\n",
                r->old_bytes ? "an update: the larger of the two images"
                             : "PutItem, DeleteItem, BatchWriteItem");
  sl_buf_printf(b, "  %-24s ", "standard");
  units(b, r->write_mu);
  sl_buf_printf(b, " WCU\n  %-24s ", "transactional");
  units(b, r->txn_write_mu);
  sl_buf_puts(b, SL_STR(" WCU\n"));
  if (r->has_table) {
    if (r->n_indexes) {
      sl_buf_printf(b, "\nindexes (%s)\n  %-24s %-4s %-8s %11s %6s %6s %13s  %s\n",
                    r->old_bytes ? "an update from the old image" : "writing this item new",
                    "index", "kind", "in index", "entry bytes", "writes", "WCU", "transactional",
                    "charged to");
      for (uint32_t i = 0; i < r->n_indexes; i++) {
        const sl_size_index *x = &r->indexes[i];
        sl_buf_printf(b, "  %-24.*s %-4s %-8s %11zu %6u ", (int)x->name.len, x->name.p,
                      x->global ? "GSI" : "LSI", x->in_index ? "yes" : "no", x->entry_bytes,
                      x->writes);
        size_t at = b->len;
        units(b, x->write_mu);
        sl_buf_printf(b, "%*s", (int)(6 - (b->len - at) > 0 ? 6 - (b->len - at) : 0), "");
        at = b->len;
        sl_buf_putc(b, ' ');
        units(b, x->txn_write_mu);
        size_t wdt = b->len - at;
        sl_buf_printf(b, "%*s  %s\n", (int)(wdt < 14 ? 14 - wdt : 0), "",
                      x->global ? "the index" : "the table");
      }
      for (uint32_t i = 0; i < r->n_indexes; i++) {
        const sl_size_index *x = &r->indexes[i];
        if (x->fetch_mu[0] < 0)
          continue;
        sl_buf_printf(b,
                      "  a Query of LSI %.*s that asks for attributes it does not project "
                      "reads this item from the table too: +",
                      (int)x->name.len, x->name.p);
        units(b, x->fetch_mu[0]);
        sl_buf_puts(b, SL_STR(" RCU eventual, +"));
        units(b, x->fetch_mu[1]);
        sl_buf_puts(b, SL_STR(" strong, per item\n"));
      }
    }
    sl_buf_puts(b, SL_STR("\nwrite units in all: "));
    units(b, r->total_mu);
    sl_buf_puts(b, SL_STR(" WCU (the table is charged "));
    units(b, r->table_charged_mu);
    sl_buf_puts(b, SL_STR("); transactional "));
    units(b, r->total_txn_mu);
    sl_buf_puts(b, SL_STR(" WCU\n"));
  }
  if (r->n_warnings) {
    sl_buf_puts(b, SL_STR("\nwarnings (a PutItem of this item would fail with "
                          "ValidationException):\n"));
    for (uint32_t i = 0; i < r->n_warnings; i++)
      sl_buf_printf(b, "  %.*s\n", SL_STR_FMT(r->warnings[i]));
  }
}

/* ---- the command ---- */
