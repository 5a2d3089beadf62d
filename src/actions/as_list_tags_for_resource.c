/*
 * ListTagsForResource (Application Auto Scaling) — the tags of a scalable
 * target named by its ARN, as a map (ops/autoscaling.h sl_as_tags_of).
 * Pinned by tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_as_list_tags_for_resource(sl_req *req) {
  const sl_as_target *t;
  sl_err err = sl_as_tags_of(req, sl_in_str(req->body, "ResourceARN"), &t);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Tags");
  sl_jw_obj_begin(w);
  for (size_t i = 0; i < t->n_tags; i++) {
    sl_jw_key(w, t->tags[i].key);
    sl_jw_str(w, t->tags[i].value);
  }
  sl_jw_obj_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
