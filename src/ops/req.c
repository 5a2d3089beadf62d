/* The request context of the cores: snapshot, tables, keys, consumed capacity. */
#include "ops/req.h"
#include "base/log.h"

#include <stdio.h>

/* ---- the read snapshot ---- */

sl_err sl_req_snapshot(sl_req *req, sl_txn **out) {
  if (!req->snapshot) {
    sl_err err = sl_store_begin(req->env->store, false, &req->fail, &req->snapshot);
    if (err != SL_OK)
      return err;
  }
  *out = req->snapshot;
  return SL_OK;
}

void sl_req_end(sl_req *req) {
  if (req->snapshot)
    sl_store_abort(req->snapshot);
  req->snapshot = NULL;
}

/* ---- tables ---- */

static bool name_char_ok(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

sl_err sl_req_check_table_name(sl_req *req, sl_str name, const char *path) {
  bool pattern_ok = name.len > 0;
  for (size_t i = 0; i < name.len; i++)
    if (!name_char_ok(name.p[i]))
      pattern_ok = false;
  bool short_ = name.len<3, long_ = name.len> 255;
  int n = !pattern_ok + short_ + long_;
  if (n == 0)
    return SL_OK;
  sl_buf b;
  sl_buf_init(&b, req->arena);
  sl_buf_printf(&b, "%d validation error%s detected: ", n, n > 1 ? "s" : "");
  const char *sep = "";
  if (!pattern_ok) {
    sl_buf_printf(&b,
                  "Value '%.*s' at '%s' failed to satisfy constraint: Member must satisfy "
                  "regular expression pattern: [a-zA-Z0-9_.-]+",
                  SL_STR_FMT(name), path);
    sep = "; ";
  }
  if (short_) {
    sl_buf_printf(&b,
                  "%sValue '%.*s' at '%s' failed to satisfy constraint: Member must have length "
                  "greater than or equal to 3",
                  sep, SL_STR_FMT(name), path);
    sep = "; ";
  }
  if (long_)
    sl_buf_printf(&b,
                  "%sValue '%.*s' at '%s' failed to satisfy constraint: Member must have length "
                  "less than or equal to 255",
                  sep, SL_STR_FMT(name), path);
  return sl_fail(req, SL_E_VALIDATION, "%.*s", SL_STR_FMT(sl_buf_str(&b)));
}

sl_str sl_req_table_arn(sl_req *req, sl_str name) {
  return sl_arena_printf(req->arena, "arn:aws:dynamodb:%s:%s:table/%.*s", req->env->region,
                         req->env->account_id, SL_STR_FMT(name));
}

sl_str sl_req_arn_table_name(sl_req *req, sl_str arn) {
  sl_str prefix = sl_arena_printf(req->arena, "arn:aws:dynamodb:%s:%s:table/", req->env->region,
                                  req->env->account_id);
  if (!sl_str_starts_with(arn, prefix))
    return SL_STR_NULL;
  sl_str rest = sl_str_make(arn.p + prefix.len, arn.len - prefix.len);
  if (memchr(rest.p, '/', rest.len))
    return SL_STR_NULL;
  return rest;
}

sl_err sl_req_lookup(sl_req *req, sl_str given, sl_lookup how, sl_table **out) {
  sl_str name = given;
  if (sl_str_starts_with(given, SL_STR("arn:"))) {
    name = sl_req_arn_table_name(req, given);
    if (name.len == 0)
      goto not_found;
  } else {
    sl_err err = sl_req_check_table_name(req, given, "tableName");
    if (err != SL_OK)
      return err;
  }
  sl_table *t = sl_catalog_get(req->env->catalog, name);
  if (!t)
    goto not_found;
  if (how == SL_LOOKUP_DATA && t->status != SL_STATUS_ACTIVE && t->status != SL_STATUS_UPDATING)
    goto not_found;
  req->table = t;
  *out = t;
  return SL_OK;
not_found:
  if (how == SL_LOOKUP_DATA)
    return sl_fail(req, SL_E_RESOURCE_NOT_FOUND, "Requested resource not found");
  return sl_fail(req, SL_E_RESOURCE_NOT_FOUND,
                 "Requested resource not found: Table: %.*s not found", SL_STR_FMT(name));
}

/* ---- keys and items ---- */

static sl_err check_key_value(sl_req *req, sl_str name, const sl_av *v, bool is_hash) {
  if ((v->type == SL_AV_S || v->type == SL_AV_B) && v->s.len == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values are not valid. The AttributeValue for a key "
                   "attribute cannot contain an empty %s value. Key: %.*s",
                   v->type == SL_AV_S ? "string" : "binary", SL_STR_FMT(name));
  size_t size = sl_av_size(v);
  if (is_hash && size > 2048)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Size of hashkey has exceeded the "
                   "maximum size limit of2048 bytes");
  if (!is_hash && size > 1024)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Aggregated size of all range keys "
                   "has exceeded the size limit of 1024 bytes");
  return SL_OK;
}

sl_err sl_req_check_key(sl_req *req, const sl_table *t, const sl_item *out, sl_keyvals *kv) {
  sl_err err;
  uint32_t want = sl_key_has_range(&t->key) ? 2 : 1;
  if (out->n != want || !sl_item_keyvals(out, &t->key, kv))
    return sl_fail(req, SL_E_VALIDATION, "The provided key element does not match the schema");
  if ((err = check_key_value(req, t->key.hash, kv->hash, true)) != SL_OK)
    return err;
  if (kv->range && (err = check_key_value(req, t->key.range, kv->range, false)) != SL_OK)
    return err;
  return SL_OK;
}

sl_err sl_req_check_item_keys(sl_req *req, const sl_table *t, const sl_item *it, sl_keyvals *kv) {
  const sl_str names[2] = {t->key.hash, t->key.range};
  const uint8_t types[2] = {t->key.hash_type, t->key.range_type};
  const sl_av *vals[2] = {NULL, NULL};
  int n = sl_key_has_range(&t->key) ? 2 : 1;
  for (int i = 0; i < n; i++) {
    vals[i] = sl_item_get(it, names[i]);
    if (!vals[i])
      return sl_fail(req, SL_E_VALIDATION,
                     "One or more parameter values were invalid: Missing the key %.*s in the item",
                     SL_STR_FMT(names[i]));
    if (vals[i]->type != types[i])
      return sl_fail(req, SL_E_VALIDATION,
                     "One or more parameter values were invalid: Type mismatch for key %.*s "
                     "expected: %s actual: %s",
                     SL_STR_FMT(names[i]), sl_av_type_name((sl_av_type)types[i]),
                     sl_av_type_name((sl_av_type)vals[i]->type));
  }
  for (int i = 0; i < n; i++) {
    sl_err err = check_key_value(req, names[i], vals[i], i == 0);
    if (err != SL_OK)
      return err;
  }
  kv->hash = vals[0];
  kv->range = vals[1];
  return sl_req_check_index_keys(req, t, it);
}

/* The indexes of 't' in name order: when an attribute keys several indexes,
 * the service names the first of them (ExtendDB's and dynoxide's captures of
 * the live messages). */
static uint32_t indexes_by_name(const sl_table *t, uint32_t order[SL_MAX_INDEXES]) {
  uint32_t n = t->n_indexes < SL_MAX_INDEXES ? t->n_indexes : SL_MAX_INDEXES;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t j = i;
    for (; j > 0 && sl_str_cmp(t->indexes[order[j - 1]].name, t->indexes[i].name) > 0; j--)
      order[j] = order[j - 1];
    order[j] = i;
  }
  return n;
}

/* An index key value the service refuses: an empty S or B. */
static bool empty_key_value(const sl_av *v) {
  return v && (v->type == SL_AV_S || v->type == SL_AV_B) && v->s.len == 0;
}

/* Index key sizes: each key attribute of an index within its key's limit
 * (2048 bytes for a partition-key attribute, 1024 for a sort-key one; the
 * live service's text, quoted in dynalite issue 35 and elsewhere: "Size limit
 * exceeded for Index Key c Actual Size: 43398 bytes Max Size: 2048 bytes
 * IndexName: index4"; DynamoDB Local says only "Size limit exceeded"); for a
 * multi-attribute key also each tuple's values together, when the item has
 * all of that tuple's attributes (DynamoDB Local 3.3's text and behaviour,
 * tests/conformance/test_gsi_multi_key.py). */
static sl_err check_index_sizes(sl_req *req, const sl_index *x, const sl_item *it) {
  uint32_t nh = sl_key_n_hash(&x->key), np = nh + sl_key_n_range(&x->key);
  size_t sum[2] = {0, 0};
  bool all[2] = {true, true};
  for (uint32_t k = 0; k < np; k++) {
    const sl_av *v = sl_item_get(it, sl_key_part(&x->key, k).name);
    if (!v) {
      all[k >= nh] = false;
      continue;
    }
    size_t size = sl_av_size(v), max = k < nh ? 2048 : 1024;
    if (size > max)
      return sl_fail(req, SL_E_VALIDATION,
                     "One or more parameter values were invalid: Size limit exceeded for Index "
                     "Key %.*s Actual Size: %zu bytes Max Size: %zu bytes IndexName: %.*s",
                     SL_STR_FMT(sl_key_part(&x->key, k).name), size, max, SL_STR_FMT(x->name));
    sum[k >= nh] += size;
  }
  if (!sl_key_is_tuple(&x->key))
    return SL_OK;
  for (int r = 0; r < 2; r++) {
    size_t limit = r ? 1024 : 2048;
    if (!all[r] || sum[r] <= limit)
      continue;
    sl_buf names;
    sl_buf_init(&names, req->arena);
    for (uint32_t k = r ? nh : 0; k < (r ? np : nh); k++) {
      if (names.len)
        sl_buf_puts(&names, SL_STR(", "));
      sl_buf_puts(&names, sl_key_part(&x->key, k).name);
    }
    return sl_fail(req, SL_E_VALIDATION,
                   "Aggregate size for %s key attributes %.*s of index %.*s has exceeded limit "
                   "%zu bytes, with actual size %zu bytes",
                   r ? "RANGE" : "HASH", SL_STR_FMT(sl_buf_str(&names)), SL_STR_FMT(x->name), limit,
                   sum[r]);
  }
  return SL_OK;
}

static sl_err check_index_keys(sl_req *req, const sl_table *t, const sl_item *it, bool empties) {
  /* An item need not carry an index's key (sparse indexes), but when it does
   * the types must be the index's (dynalite's live text) and a string or
   * binary value must not be empty (the live text, e.g. dynalite issue 184). */
  uint32_t order[SL_MAX_INDEXES];
  uint32_t n = indexes_by_name(t, order);
  for (uint32_t o = 0; o < n; o++) {
    const sl_index *x = &t->indexes[order[o]];
    uint32_t n_parts = sl_key_n_hash(&x->key) + sl_key_n_range(&x->key);
    sl_str names[2 * SL_KEY_MAX_PARTS];
    uint8_t types[2 * SL_KEY_MAX_PARTS];
    for (uint32_t k = 0; k < n_parts; k++) {
      names[k] = sl_key_part(&x->key, k).name;
      types[k] = sl_key_part(&x->key, k).type;
    }
    for (uint32_t k = 0; k < n_parts; k++) {
      const sl_av *v = sl_item_get(it, names[k]);
      if (v && v->type != types[k])
        return sl_fail(
            req, SL_E_VALIDATION,
            "One or more parameter values were invalid: Type mismatch for Index Key %.*s "
            "Expected: %s Actual: %s IndexName: %.*s",
            SL_STR_FMT(names[k]), sl_av_type_name((sl_av_type)types[k]),
            sl_av_type_name((sl_av_type)v->type), SL_STR_FMT(x->name));
      if (empties && empty_key_value(v))
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values are not valid. A value specified for a "
                       "secondary index key is not supported. The AttributeValue for a key "
                       "attribute cannot contain an empty %s value. IndexName: %.*s, IndexKey: "
                       "%.*s",
                       v->type == SL_AV_S ? "string" : "binary", SL_STR_FMT(x->name),
                       SL_STR_FMT(names[k]));
    }
    sl_err err = check_index_sizes(req, x, it);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

sl_err sl_req_check_index_keys(sl_req *req, const sl_table *t, const sl_item *it) {
  return check_index_keys(req, t, it, true);
}

sl_err sl_req_check_index_key_types(sl_req *req, const sl_table *t, const sl_item *it) {
  return check_index_keys(req, t, it, false);
}

sl_err sl_req_check_updated_index_keys(sl_req *req, const sl_table *t, const sl_item *old,
                                       const sl_item *it) {
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    uint32_t n_parts = sl_key_n_hash(&x->key) + sl_key_n_range(&x->key);
    for (uint32_t k = 0; k < n_parts; k++) {
      sl_str name = sl_key_part(&x->key, k).name;
      const sl_av *v = sl_item_get(it, name);
      const sl_av *was = old ? sl_item_get(old, name) : NULL;
      /* Only a value the update changed is checked. */
      if (empty_key_value(v) && !(was && sl_av_eq(was, v)))
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values are not valid. The update expression "
                       "attempted to update a secondary index key to a value that is not "
                       "supported. The AttributeValue for a key attribute cannot contain an "
                       "empty %s value.",
                       v->type == SL_AV_S ? "string" : "binary");
    }
    sl_err err = check_index_sizes(req, x, it);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

sl_err sl_req_check_item(sl_req *req, const sl_table *t, const sl_item *out, sl_keyvals *kv) {
  sl_err err;
  if ((err = sl_req_check_item_keys(req, t, out, kv)) != SL_OK)
    return err;
  if (sl_item_size(out) > SL_ITEM_MAX_BYTES)
    return sl_fail(req, SL_E_VALIDATION, "Item size has exceeded the maximum allowed size");
  return SL_OK;
}

/* ---- consumed capacity ---- */

void sl_consumed_add_index(sl_consumed *c, sl_str name, bool global, int64_t read_mu,
                           int64_t write_mu) {
  for (uint32_t i = 0; i < c->n_idx; i++) {
    if (sl_str_eq(c->idx[i].name, name)) {
      c->idx[i].read_mu += read_mu;
      c->idx[i].write_mu += write_mu;
      return;
    }
  }
  if (c->n_idx == SL_MAX_CONSUMED_INDEXES)
    return;
  c->idx[c->n_idx].name = name;
  c->idx[c->n_idx].global = global;
  c->idx[c->n_idx].read_mu = read_mu;
  c->idx[c->n_idx].write_mu = write_mu;
  c->n_idx++;
}
