/*
 * UntagResource — removes tags by key; a missing key is not an error. The
 * keys are checked (actions/members.h) before the table is looked up.
 * Pinned by tests/conformance/test_tags.py.
 */
#include "actions/actions.h"
#include "ops/tags.h"

sl_err sl_action_untag_resource(sl_req *req) {
  const sl_json *list = sl_json_get(req->body, "TagKeys");
  sl_err err = sl_in_check_tag_keys(&req->fail, list);
  if (err != SL_OK)
    return err;
  sl_str *keys = SL_NEW_ARRAY(req->arena, sl_str, list->arr.n + 1);
  for (size_t i = 0; i < list->arr.n; i++)
    keys[i] = list->arr.items[i]->str;
  if ((err = sl_untag_resource(req, sl_in_str(req->body, "ResourceArn"), keys,
                               (uint32_t)list->arr.n)) != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
