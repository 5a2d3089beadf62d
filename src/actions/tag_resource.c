/*
 * TagResource — adds or replaces tags of a table addressed by its ARN.
 * Pinned by tests/conformance/test_tags.py.
 *
 * An ARN that names no table of this server is ResourceNotFoundException
 * "Requested resource not found: ResourcArn: <arn> not found" (sic: the
 * service's own spelling, see ops/tables.c). A key appears once: tagging an
 * existing key replaces its value.
 */
#include "actions/actions.h"
#include "ops/tables.h"

sl_err sl_action_tag_resource(sl_req *req) {
  sl_table *old;
  /* The tags are checked before the table is looked up. */
  sl_err err = sl_in_check_tags(&req->fail, sl_json_get(req->body, "Tags"));
  if (err != SL_OK)
    return err;
  if ((err = sl_tables_by_arn(req, sl_in_str(req->body, "ResourceArn"), &old)) != SL_OK)
    return err;
  sl_table *t = sl_table_clone(old);
  sl_tag *tags;
  uint32_t n;
  sl_in_tags(req->arena, sl_json_get(req->body, "Tags"), &tags, &n);
  if ((err = sl_tables_merge_tags(req, t, tags, n)) != SL_OK ||
      (err = sl_tables_commit_version(req, old, t)) != SL_OK) {
    sl_table_free(t);
    return err;
  }
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
