/*
 * UntagResource (Application Auto Scaling) — removes tags by key from a
 * scalable target named by its ARN; a key it does not have is no error
 * (ops/autoscaling.h sl_as_untag). Pinned by
 * tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_as_untag_resource(sl_req *req) {
  const sl_json *keys = sl_in_arr(req->body, "TagKeys");
  size_t n = keys ? keys->arr.n : 0;
  sl_str *v = SL_NEW_ARRAY(req->arena, sl_str, n ? n : 1);
  for (size_t i = 0; i < n; i++)
    v[i] = keys->arr.items[i]->str;
  sl_err err = sl_as_untag(req, sl_in_str(req->body, "ResourceARN"), v, (uint32_t)n);
  if (err != SL_OK)
    return err;
  sl_jw_obj_begin(&req->w);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
