/*
 * ListTagsOfResource — the tags of a table addressed by its ARN.
 * Pinned by tests/conformance/test_tags.py.
 */
#include "actions/actions.h"
#include "ops/tags.h"

sl_err sl_action_list_tags_of_resource(sl_req *req) {
  const sl_tag *tags;
  uint32_t n;
  sl_err err = sl_list_tags_of_resource(req, sl_in_str(req->body, "ResourceArn"), &tags, &n);
  if (err != SL_OK)
    return err;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Tags");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < n; i++) {
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "Key");
    sl_jw_str(w, tags[i].key);
    sl_jw_key_c(w, "Value");
    sl_jw_str(w, tags[i].value);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
