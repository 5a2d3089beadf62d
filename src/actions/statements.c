/* Request members of the PartiQL actions; see statements.h. */
#include "actions/statements.h"

sl_err sl_statements_parameters(sl_req *req, const sl_json *obj, sl_av **out, uint32_t *n_out) {
  const sl_json *ps = sl_json_get(obj, "Parameters");
  size_t n = ps && ps->type == SL_JSON_ARRAY ? ps->arr.n : 0;
  sl_av *v = SL_NEW_ARRAY(req->arena, sl_av, n ? n : 1);
  for (size_t i = 0; i < n; i++) {
    sl_err err = sl_av_from_json(&req->fail, req->arena, ps->arr.items[i], &v[i]);
    if (err != SL_OK)
      return err;
  }
  *out = v;
  *n_out = (uint32_t)n;
  return SL_OK;
}
