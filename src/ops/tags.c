/* Tag cores; see tags.h. Pinned by tests/conformance/test_tags.py. */
#include "ops/tags.h"

sl_err sl_tag_resource(sl_req *req, sl_str arn, const sl_tag *tags, uint32_t n) {
  sl_table *old;
  sl_err err = sl_tables_by_arn(req, arn, &old);
  if (err != SL_OK)
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
  sl_err err = sl_tables_by_arn(req, arn, &old);
  if (err != SL_OK)
    return err;
  sl_table *t = sl_table_clone(old);
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->n_tags; i++) {
    bool drop = false;
    for (uint32_t j = 0; j < n_keys; j++)
      drop |= sl_str_eq(t->tags[i].key, keys[j]);
    if (!drop)
      t->tags[n++] = t->tags[i];
  }
  t->n_tags = n;
  if ((err = sl_tables_commit_version(req, old, t)) != SL_OK) {
    sl_table_free(t);
    return err;
  }
  return SL_OK;
}

sl_err sl_list_tags_of_resource(sl_req *req, sl_str arn, const sl_tag **tags, uint32_t *n) {
  sl_table *t;
  sl_err err = sl_tables_by_arn(req, arn, &t);
  if (err != SL_OK)
    return err;
  *tags = t->tags;
  *n = t->n_tags;
  return SL_OK;
}
