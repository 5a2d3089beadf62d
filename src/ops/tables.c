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

/* Splits 'arn' at its first five ':' into arn, partition, service, region,
 * account and resource; false if it has fewer. */
static bool arn_split(sl_str arn, sl_str part[6]) {
  size_t start = 0;
  for (int k = 0; k < 5; k++) {
    const char *c = memchr(arn.p + start, ':', arn.len - start);
    if (!c)
      return false;
    part[k] = sl_str_make(arn.p + start, (size_t)(c - (arn.p + start)));
    start = (size_t)(c - arn.p) + 1;
  }
  part[5] = sl_str_make(arn.p + start, arn.len - start);
  return true;
}

/* The ARN's own checks, made before any table is looked up, with the texts the
 * ack-api-quirks catalogue recorded from the service (DDB-TABLE-442,
 * DDB-BACKUP-013) and ExtendDB's live checks (pull request 227) for the
 * error classes: no "arn:" prefix, another service, another account, another
 * region, an index or backup ARN. Pinned by tests/conformance/test_tags.py. */
/* 'label' is set to the stream's label when the ARN names a stream. */
static sl_err check_resource_arn(sl_req *req, sl_str arn, sl_str *label) {
  if (!sl_str_starts_with(arn, SL_STR("arn:")))
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: ARNs must start with 'arn:': %.*s",
                   SL_STR_FMT(arn));
  sl_str part[6];
  if (!arn_split(arn, part) || !sl_str_eq_c(part[2], "dynamodb") || !part[5].len)
    return sl_fail(req, SL_E_ACCESS_DENIED, "Access is denied");
  sl_str region = part[3], account = part[4], resource = part[5];
  if (!sl_str_starts_with(resource, SL_STR("table/")) || resource.len == 6)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Provided Arn is not a DynamoDB "
                   "resource arn: %.*s",
                   SL_STR_FMT(arn));
  if (!sl_str_eq_c(account, req->env->account_id))
    return sl_fail(req, SL_E_ACCESS_DENIED, "Access is denied");
  if (!sl_str_eq_c(region, req->env->region))
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid TableArn: Invalid ResourceArn provided as input %.*s", SL_STR_FMT(arn));
  sl_str rest = sl_str_make(resource.p + 6, resource.len - 6);
  const char *slash = memchr(rest.p, '/', rest.len);
  if (!slash)
    return SL_OK;
  sl_str kind = sl_str_make(slash + 1, rest.len - (size_t)(slash + 1 - rest.p));
  if (sl_str_starts_with(kind, SL_STR("index/")))
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Invalid resource arn provided, "
                   "only table or stream is accepted. Provided resource arn: %.*s",
                   SL_STR_FMT(arn));
  if (sl_str_starts_with(kind, SL_STR("stream/"))) {
    /* Streams are tagged on their own (DG "Using attribute-based access
     * control with DynamoDB Streams"). */
    *label = sl_str_make(kind.p + 7, kind.len - 7);
    return SL_OK;
  }
  return sl_fail(req, SL_E_VALIDATION,
                 "One or more parameter values were invalid: Provided Arn is not a DynamoDB "
                 "resource arn: %.*s",
                 SL_STR_FMT(arn));
}

sl_err sl_tables_check_settled(sl_req *req, const sl_table *t) {
  if (t->status != SL_STATUS_CREATING && t->status != SL_STATUS_DELETING)
    return SL_OK;
  return sl_fail(req, SL_E_RESOURCE_IN_USE, SL_IN_USE "Table is being %s: %.*s",
                 t->status == SL_STATUS_CREATING ? "created" : "deleted", SL_STR_FMT(t->name));
}

sl_err sl_tables_resource_not_found(sl_req *req, sl_str arn) {
  return sl_fail(req, SL_E_RESOURCE_NOT_FOUND,
                 "Requested resource not found: ResourcArn: %.*s not found", SL_STR_FMT(arn));
}

sl_err sl_tables_by_arn(sl_req *req, sl_str arn, sl_table **out, sl_stream_ref *stream) {
  sl_str label = SL_STR_NULL;
  sl_err err = check_resource_arn(req, arn, &label);
  if (err != SL_OK)
    return err;
  *out = NULL;
  if (label.p) {
    /* "arn:...:table/<name>/stream/<label>": the stream is looked up by
     * the caller, in its transaction (its table may be gone already). */
    sl_str head = sl_str_make(arn.p, arn.len - label.len - 8);
    stream->table = sl_req_arn_table_name(req, head);
    stream->label = label;
    if (!stream->table.len || !label.len)
      return sl_tables_resource_not_found(req, arn);
    return SL_OK;
  }
  stream->table = stream->label = SL_STR_NULL;
  sl_str name = sl_req_arn_table_name(req, arn);
  sl_table *t = name.len ? sl_catalog_get(req->env->catalog, name) : NULL;
  if (!t)
    return sl_tables_resource_not_found(req, arn);
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
