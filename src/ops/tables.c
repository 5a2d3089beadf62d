/* Control-plane helpers; see tables.h. */
#include "ops/tables.h"
#include "base/log.h"
#include "cap/cap.h"
#include "streams/streams.h"

#include <stdio.h>
#include <string.h>

/* Tag text: Unicode letters, digits and spaces and _ . : / = + - @ (the
 * service's pattern ^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$), 'max' code points
 * at most. Characters outside ASCII are taken as letters: sluice carries no
 * Unicode tables, so a non-ASCII symbol the service refuses passes here. */
static bool tag_text_ok(sl_str s, size_t min, size_t max) {
  size_t points = 0;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.p[i];
    if ((c & 0xC0) != 0x80)
      points++;
    if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
      continue;
    if (!strchr(" _.:/=+-@", c) || c == 0)
      return false;
  }
  return points >= min && points <= max;
}

static sl_err check_tag_key(sl_failure *f, const sl_json *k) {
  if (!k || k->type != SL_JSON_STRING || !tag_text_ok(k->str, 1, 128))
    return sl_failf(f, SL_E_VALIDATION, "The Tag Key provided is invalid, Key: %.*s",
                    SL_STR_FMT(k && k->type == SL_JSON_STRING ? k->str : SL_STR("null")));
  return SL_OK;
}

sl_err sl_tables_check_tags(sl_failure *f, const sl_json *tags) {
  if (!tags || tags->type != SL_JSON_ARRAY)
    return SL_OK;
  if (tags->arr.n == 0)
    return sl_failf(f, SL_E_VALIDATION, "Atleast one Tag needs to be provided as Input.");
  for (size_t i = 0; i < tags->arr.n; i++) {
    const sl_json *k = sl_json_get(tags->arr.items[i], "Key");
    const sl_json *v = sl_json_get(tags->arr.items[i], "Value");
    sl_err err = check_tag_key(f, k);
    if (err != SL_OK)
      return err;
    if (!v || v->type != SL_JSON_STRING || !tag_text_ok(v->str, 0, 256))
      return sl_failf(f, SL_E_VALIDATION, "The Tag Value provided is invalid, Value: %.*s",
                      SL_STR_FMT(v && v->type == SL_JSON_STRING ? v->str : SL_STR("null")));
    if (sl_str_starts_with(k->str, SL_STR("aws:")))
      return sl_failf(f, SL_E_VALIDATION, "Tag Key cannot be prefixed with aws:, Key: %.*s",
                      SL_STR_FMT(k->str));
    for (size_t j = 0; j < i; j++)
      if (sl_str_eq(sl_req_str(tags->arr.items[j], "Key"), k->str))
        return sl_failf(f, SL_E_VALIDATION,
                        "Duplicate Tag Keys provided as input: Duplicate Tag Key found %.*s",
                        SL_STR_FMT(k->str));
  }
  return SL_OK;
}

sl_err sl_tables_check_tag_keys(sl_failure *f, const sl_json *keys) {
  if (!keys || keys->type != SL_JSON_ARRAY || keys->arr.n == 0)
    return sl_failf(f, SL_E_VALIDATION, "Atleast one Tag Key needs to be provided as Input.");
  if (keys->arr.n > SL_TABLE_MAX_TAGS)
    return sl_failf(f, SL_E_VALIDATION,
                    "Number of Tags exceed the current limit for the provided ResourceArn");
  for (size_t i = 0; i < keys->arr.n; i++) {
    sl_err err = check_tag_key(f, keys->arr.items[i]);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

sl_err sl_tables_refuse_kms(sl_req *req, const sl_json *body) {
  const sl_json *sse = sl_json_get(body, "SSESpecification");
  if (sse && sse->type == SL_JSON_OBJECT && sl_req_bool(sse, "Enabled", false))
    return sl_fail(req, SL_E_VALIDATION,
                   "sluice does not support SSESpecification with Enabled true (server-side "
                   "encryption with a KMS key); see README: Not supported");
  return SL_OK;
}

sl_err sl_tables_parse_tags(sl_req *req, sl_table *t, const sl_json *tags) {
  if (!tags || tags->type != SL_JSON_ARRAY)
    return SL_OK;
  size_t total = t->n_tags + tags->arr.n;
  sl_tag *out = SL_NEW_ARRAY(&t->mem, sl_tag, total + 1);
  if (t->n_tags)
    memcpy(out, t->tags, t->n_tags * sizeof(sl_tag));
  uint32_t n = t->n_tags;
  for (size_t i = 0; i < tags->arr.n; i++) {
    sl_str k = sl_req_str(tags->arr.items[i], "Key");
    sl_str v = sl_req_str(tags->arr.items[i], "Value");
    bool replaced = false;
    for (uint32_t j = 0; j < n; j++) {
      if (sl_str_eq(out[j].key, k)) {
        out[j].value = sl_table_str(t, v);
        replaced = true;
      }
    }
    if (!replaced) {
      out[n].key = sl_table_str(t, k);
      out[n].value = sl_table_str(t, v);
      n++;
    }
  }
  if (n > SL_TABLE_MAX_TAGS)
    return sl_fail(req, SL_E_VALIDATION,
                   "Number of Tags exceed the current limit for the provided ResourceArn");
  t->tags = out;
  t->n_tags = n;
  return SL_OK;
}

sl_err sl_tables_identity(sl_req *req, sl_txn *txn, sl_table *t) {
  sl_err err = sl_store_next_id(txn, &t->id, &req->fail);
  for (uint32_t i = 0; err == SL_OK && i < t->n_indexes; i++)
    err = sl_store_next_id(txn, &t->indexes[i].id, &req->fail);
  if (err != SL_OK)
    return err;
  uint64_t a = sl_env_random(req->env), b = sl_env_random(req->env);
  /* A version-4 UUID. */
  snprintf(t->uuid, sizeof(t->uuid), "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(a >> 32),
           (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xfff,
           (unsigned)((b >> 48) & 0x3fff) | 0x8000, (unsigned long long)(b & 0xffffffffffffULL));
  return SL_OK;
}

sl_err sl_tables_by_arn(sl_req *req, sl_table **out) {
  sl_str arn = sl_req_str(req->body, "ResourceArn");
  if (!sl_str_starts_with(arn, SL_STR("arn:")))
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid TableArn: Invalid ResourceArn provided as input %.*s", SL_STR_FMT(arn));
  sl_str name = sl_req_arn_table_name(req, arn);
  sl_table *t = name.len ? sl_catalog_get(req->env->catalog, name) : NULL;
  if (!t)
    return sl_fail(req, SL_E_RESOURCE_NOT_FOUND,
                   "Requested resource not found: ResourcArn: %.*s not found", SL_STR_FMT(arn));
  req->table = t;
  *out = t;
  return SL_OK;
}

sl_err sl_tables_commit_version(sl_req *req, sl_table *old, sl_table *t) {
  sl_txn *txn;
  sl_err err = sl_store_begin(req->env->store, true, &req->fail, &txn);
  if (err != SL_OK)
    return err;
  t->version = old->version + 1;
  if ((err = sl_streams_sync(req->env->streams, txn, old, t, req->now_ms, &req->fail)) != SL_OK ||
      (err = sl_catalog_save(txn, t, &req->fail)) != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  if ((err = sl_store_commit(txn, &req->fail)) != SL_OK)
    return err;
  sl_catalog_install(req->env->catalog, t);
  return SL_OK;
}
