/*
 * TagResource (Application Auto Scaling) — adds or replaces tags on a
 * scalable target named by its ARN (ops/autoscaling.h sl_as_tag). Pinned by
 * tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_as_tag_resource(sl_req *req) {
  const sl_json *tags = sl_in_obj(req->body, "Tags");
  size_t n = tags ? tags->obj.n : 0;
  sl_tag *v = SL_NEW_ARRAY(req->arena, sl_tag, n ? n : 1);
  uint32_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!sl_in_member_shadowed(tags, i))
      v[k++] = (sl_tag){tags->obj.members[i].key, tags->obj.members[i].value->str};
  sl_err err = sl_as_tag(req, sl_in_str(req->body, "ResourceARN"), v, k);
  if (err != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
