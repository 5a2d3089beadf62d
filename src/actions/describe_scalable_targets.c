/*
 * DescribeScalableTargets (Application Auto Scaling) — the registered
 * targets of the namespace, filtered by ResourceIds and ScalableDimension,
 * in registration order, paged by MaxResults and NextToken. Pinned by
 * tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

static bool listed(const sl_json *ids, sl_str id) {
  if (!ids || ids->type != SL_JSON_ARRAY || ids->arr.n == 0)
    return true;
  for (size_t i = 0; i < ids->arr.n; i++)
    if (ids->arr.items[i]->type == SL_JSON_STRING && sl_str_eq(ids->arr.items[i]->str, id))
      return true;
  return false;
}

sl_err sl_action_describe_scalable_targets(sl_req *req) {
  sl_err err = sl_as_check_namespace(req, sl_in_str(req->body, "ServiceNamespace"));
  if (err != SL_OK)
    return err;
  sl_str dim = sl_in_str(req->body, "ScalableDimension");
  const sl_json *ids = sl_in_arr(req->body, "ResourceIds");
  size_t start, max;
  if ((err = sl_in_as_page(req, &start, &max)) != SL_OK)
    return err;
  sl_autoscaling *as = req->env->autoscaling;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ScalableTargets");
  sl_jw_arr_begin(w);
  size_t seen = 0, next = 0;
  for (size_t i = 0; i < as->n_targets; i++) {
    const sl_as_target *t = as->targets[i];
    if ((dim.p && !sl_str_eq_c(dim, sl_scalable_dim_name(t->dim))) || !listed(ids, t->resource_id))
      continue;
    if (seen >= start && seen < start + max) {
      sl_reply_as_target(req, t);
      next = seen + 1;
    }
    seen++;
  }
  sl_jw_arr_end(w);
  sl_reply_as_next(w, next > start ? next : start, seen);
  sl_jw_obj_end(w);
  return SL_OK;
}
