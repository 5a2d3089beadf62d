/*
 * DescribeScalingActivities (Application Auto Scaling) — the activities of
 * the namespace, newest first, filtered by ResourceId and ScalableDimension,
 * paged: every change a policy, a scheduled action or a registration made or
 * tried, with its cause and, for a refused one, the reason; with
 * IncludeNotScaledActivities also the not-scaled ones (ops/autoscaling.h),
 * with their NotScaledReasons. Pinned by
 * tests/conformance/test_autoscaling.py and test_autoscaling_capacity.py.
 */
#include "actions/actions.h"
#include "actions/autoscaling.h"

sl_err sl_action_describe_scaling_activities(sl_req *req) {
  sl_err err = sl_as_check_namespace(req, sl_in_str(req->body, "ServiceNamespace"));
  if (err != SL_OK)
    return err;
  sl_str rid = sl_in_str(req->body, "ResourceId");
  sl_str dim = sl_in_str(req->body, "ScalableDimension");
  bool include_not_scaled = sl_in_bool(req->body, "IncludeNotScaledActivities", false);
  sl_as_page page;
  if ((err = sl_in_as_page(req, &page)) != SL_OK)
    return err;
  sl_autoscaling *as = req->env->autoscaling;
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ScalingActivities");
  sl_jw_arr_begin(w);
  for (size_t i = as->n_activities; i-- > 0;) {
    const sl_as_activity *a = as->activities[i];
    if ((rid.p && !sl_str_eq(rid, a->resource_id)) ||
        (dim.p && !sl_str_eq_c(dim, sl_scalable_dim_name(a->dim))) ||
        (a->not_scaled.len && !include_not_scaled))
      continue;
    if (sl_as_page_take(&page))
      sl_reply_as_activity(req, a);
  }
  sl_jw_arr_end(w);
  sl_reply_as_next(w, &page);
  sl_jw_obj_end(w);
  return SL_OK;
}
