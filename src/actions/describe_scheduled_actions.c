/*
 * DescribeScheduledActions (Application Auto Scaling) — the scheduled
 * actions of the namespace, filtered by ScheduledActionNames, ResourceId and
 * ScalableDimension, paged. Pinned by tests/conformance/test_autoscaling.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_describe_scheduled_actions(sl_req *req) {
  sl_err err = sl_as_check_namespace(req, sl_in_str(req->body, "ServiceNamespace"));
  if (err != SL_OK)
    return err;
  sl_str rid = sl_in_str(req->body, "ResourceId");
  sl_str dim = sl_in_str(req->body, "ScalableDimension");
  const sl_json *names = sl_in_arr(req->body, "ScheduledActionNames");
  sl_as_page page;
  if ((err = sl_in_as_page(req, &page)) != SL_OK)
    return err;
  sl_autoscaling *as = req->env->autoscaling;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ScheduledActions");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < as->n_scheduled; i++) {
    const sl_as_scheduled *s = as->scheduled[i];
    if ((rid.p && !sl_str_eq(rid, s->resource_id)) ||
        (dim.p && !sl_str_eq_c(dim, sl_scalable_dim_name(s->dim))) ||
        !sl_in_as_listed(names, s->name))
      continue;
    if (sl_as_page_take(&page))
      sl_reply_as_scheduled(req, s);
  }
  sl_jw_arr_end(w);
  sl_reply_as_next(w, &page);
  sl_jw_obj_end(w);
  return SL_OK;
}
