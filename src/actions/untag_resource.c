/*
 * UntagResource — removes tags by key; a missing key is not an error. The
 * keys are checked (ops/tables.h) before the table is looked up.
 * Pinned by tests/conformance/test_tags.py.
 */
#include "actions/actions.h"
#include "ops/tables.h"

sl_err sl_action_untag_resource(sl_req *req) {
  sl_table *old;
  const sl_json *keys = sl_json_get(req->body, "TagKeys");
  sl_err err = sl_in_check_tag_keys(&req->fail, keys);
  if (err != SL_OK)
    return err;
  if ((err = sl_tables_by_arn(req, sl_in_str(req->body, "ResourceArn"), &old)) != SL_OK)
    return err;
  sl_table *t = sl_table_clone(old);
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->n_tags; i++) {
    bool drop = false;
    for (size_t j = 0; keys && j < keys->arr.n; j++)
      drop |= sl_str_eq(t->tags[i].key, keys->arr.items[j]->str);
    if (!drop)
      t->tags[n++] = t->tags[i];
  }
  t->n_tags = n;
  if ((err = sl_tables_commit_version(req, old, t)) != SL_OK) {
    sl_table_free(t);
    return err;
  }
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
