/*
 * DescribeScalableTargets (Application Auto Scaling) — the registered
 * targets of the namespace, filtered by ResourceIds and ScalableDimension,
 * in registration order, paged by MaxResults and NextToken. Pinned by
 * tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_describe_scalable_targets(sl_req *req) {
  sl_err err = sl_as_check_namespace(req, sl_in_str(req->body, "ServiceNamespace"));
  if (err != SL_OK)
    return err;
  sl_str dim = sl_in_str(req->body, "ScalableDimension");
  const sl_json *ids = sl_in_arr(req->body, "ResourceIds");
  sl_as_page page;
  if ((err = sl_in_as_page(req, &page)) != SL_OK)
    return err;
  sl_autoscaling *as = req->env->autoscaling;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ScalableTargets");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < as->n_targets; i++) {
    const sl_as_target *t = as->targets[i];
    if ((dim.p && !sl_str_eq_c(dim, sl_scalable_dim_name(t->dim))) ||
        !sl_in_as_listed(ids, t->resource_id))
      continue;
    if (sl_as_page_take(&page))
      sl_reply_as_target(req, t);
  }
  sl_jw_arr_end(w);
  sl_reply_as_next(w, &page);
  sl_jw_obj_end(w);
  return SL_OK;
}
