/* Tag cores; see tags.h. Pinned by tests/conformance/test_tags.py. */
#include "ops/tags.h"
#include "streams/streams.h"

/* 'cur' with 'tags' added or replaced (in the request's arena), or the
 * service's refusal past 50 tags. */
static sl_err merge(sl_req *req, const sl_tag *cur, uint32_t n_cur, const sl_tag *tags,
                    uint32_t n_tags, sl_tag **out, uint32_t *n_out) {
  sl_tag *v = SL_NEW_ARRAY(req->arena, sl_tag, n_cur + n_tags + 1);
  if (n_cur)
    memcpy(v, cur, n_cur * sizeof(sl_tag));
  uint32_t n = n_cur;
  for (uint32_t i = 0; i < n_tags; i++) {
    uint32_t j = 0;
    while (j < n && !sl_str_eq(v[j].key, tags[i].key))
      j++;
    if (j == n)
      v[n++].key = tags[i].key;
    v[j].value = tags[i].value;
  }
  if (n > SL_TABLE_MAX_TAGS)
    return sl_fail(req, SL_E_VALIDATION,
                   "Number of Tags exceed the current limit for the provided ResourceArn");
  *out = v;
  *n_out = n;
  return SL_OK;
}

/* 'tags' without the keys listed. */
static uint32_t drop_keys(sl_tag *tags, uint32_t n, const sl_str *keys, uint32_t n_keys) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < n; i++) {
    bool drop = false;
    for (uint32_t j = 0; j < n_keys; j++)
      drop |= sl_str_eq(tags[i].key, keys[j]);
    if (!drop)
      tags[kept++] = tags[i];
  }
  return kept;
}

/* A stream's tags change in one write transaction: the stream must still be
 * kept (enabled, or disabled within its retention; its table may be gone).
 * 'tags' to add, or 'keys' to remove. */
static sl_err change_stream_tags(sl_req *req, sl_str arn, const sl_stream_ref *ref,
                                 const sl_tag *tags, uint32_t n_tags, const sl_str *keys,
                                 uint32_t n_keys) {
  sl_txn *txn;
  sl_err err = sl_store_begin(req->env->store, true, &req->fail, &txn);
  if (err != SL_OK)
    return err;
  sl_stream st;
  sl_tag *cur, *next = NULL;
  uint32_t n_cur, n_next = 0;
  if (!sl_streams_get(txn, req->arena, ref->table, ref->label, &st)) {
    err = sl_tables_resource_not_found(req, arn);
    goto out;
  }
  sl_streams_tags(txn, req->arena, ref->table, ref->label, &cur, &n_cur);
  if (keys) {
    next = cur;
    n_next = drop_keys(cur, n_cur, keys, n_keys);
  } else if ((err = merge(req, cur, n_cur, tags, n_tags, &next, &n_next)) != SL_OK) {
    goto out;
  }
  if ((err = sl_streams_set_tags(txn, req->arena, ref->table, ref->label, next, n_next,
                                 &req->fail)) != SL_OK)
    goto out;
  return sl_store_commit(txn, &req->fail);
out:
  sl_store_abort(txn);
  return err;
}

sl_err sl_tag_resource(sl_req *req, sl_str arn, const sl_tag *tags, uint32_t n) {
  sl_table *old;
  sl_stream_ref ref;
  sl_err err = sl_tables_by_arn(req, arn, &old, &ref);
  if (err != SL_OK)
    return err;
  if (!old)
    return change_stream_tags(req, arn, &ref, tags, n, NULL, 0);
  /* A table being created or deleted cannot be tagged yet (ACKQ DDB-TABLE-444
   * catalogue: the CreateTable/UpdateTable texts, TagResource among their
   * operations). Pinned by tests/conformance/test_tags.py. */
  if ((err = sl_tables_check_settled(req, old)) != SL_OK)
    return err;
  sl_table *t = sl_table_clone(old);
  if ((err = sl_tables_merge_tags(req, t, tags, n)) != SL_OK ||
      (err = sl_tables_commit_version(req, old, t)) != SL_OK) {
    sl_table_free(t);
    return err;
  }
  return SL_OK;
}

sl_err sl_untag_resource(sl_req *req, sl_str arn, const sl_str *keys, uint32_t n_keys) {
  sl_table *old;
  sl_stream_ref ref;
  sl_err err = sl_tables_by_arn(req, arn, &old, &ref);
  if (err != SL_OK)
    return err;
  if (!old)
    return change_stream_tags(req, arn, &ref, NULL, 0, keys, n_keys);
  sl_table *t = sl_table_clone(old);
  t->n_tags = drop_keys(t->tags, t->n_tags, keys, n_keys);
  if ((err = sl_tables_commit_version(req, old, t)) != SL_OK) {
    sl_table_free(t);
    return err;
  }
  return SL_OK;
}

sl_err sl_list_tags_of_resource(sl_req *req, sl_str arn, const sl_tag **tags, uint32_t *n) {
  sl_table *t;
  sl_stream_ref ref;
  sl_err err = sl_tables_by_arn(req, arn, &t, &ref);
  if (err != SL_OK)
    return err;
  if (t) {
    *tags = t->tags;
    *n = t->n_tags;
    return SL_OK;
  }
  sl_txn *txn;
  if ((err = sl_req_snapshot(req, &txn)) != SL_OK)
    return err;
  sl_stream st;
  if (!sl_streams_get(txn, req->arena, ref.table, ref.label, &st))
    return sl_tables_resource_not_found(req, arn);
  sl_tag *v;
  sl_streams_tags(txn, req->arena, ref.table, ref.label, &v, n);
  *tags = v;
  return SL_OK;
}
