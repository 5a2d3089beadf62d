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
#include "ops/tags.h"

sl_err sl_action_tag_resource(sl_req *req) {
  const sl_json *list = sl_json_get(req->body, "Tags");
  /* The tags are checked before the table is looked up. */
  sl_err err = sl_in_check_tags(&req->fail, list);
  if (err != SL_OK)
    return err;
  sl_tag *tags;
  uint32_t n;
  sl_in_tags(req->arena, list, &tags, &n);
  if ((err = sl_tag_resource(req, sl_in_str(req->body, "ResourceArn"), tags, n)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
