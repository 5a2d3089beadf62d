/* Control-plane helpers; see tables.h. */
#include "ops/tables.h"
#include "base/log.h"
#include "cap/cap.h"
#include "streams/streams.h"

#include <stdio.h>
#include <string.h>

sl_err sl_tables_merge_tags(sl_req *req, sl_table *t, const sl_tag *tags, uint32_t n_tags) {
  size_t total = t->n_tags + n_tags;
  sl_tag *out = SL_NEW_ARRAY(&t->mem, sl_tag, total + 1);
  if (t->n_tags)
    memcpy(out, t->tags, t->n_tags * sizeof(sl_tag));
  uint32_t n = t->n_tags;
  for (uint32_t i = 0; i < n_tags; i++) {
    bool replaced = false;
    for (uint32_t j = 0; j < n; j++) {
      if (sl_str_eq(out[j].key, tags[i].key)) {
        out[j].value = sl_table_str(t, tags[i].value);
        replaced = true;
      }
    }
    if (!replaced) {
      out[n].key = sl_table_str(t, tags[i].key);
      out[n].value = sl_table_str(t, tags[i].value);
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

sl_err sl_tables_by_arn(sl_req *req, sl_str arn, sl_table **out) {
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
